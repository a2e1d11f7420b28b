import { describe, expect, it } from 'vitest';
import { continuousTapAction, pagedArrowKeys, pagedKeyMove, pagedTapAction, swipeMove } from './controls';

describe('pagedKeyMove', () => {
  it.each([
    ['LEFT_TO_RIGHT', 'ArrowRight', 'next'],
    ['LEFT_TO_RIGHT', 'ArrowLeft', 'previous'],
    ['RIGHT_TO_LEFT', 'ArrowLeft', 'next'],
    ['RIGHT_TO_LEFT', 'ArrowRight', 'previous'],
    ['VERTICAL', 'ArrowDown', 'next'],
    ['VERTICAL', 'ArrowUp', 'previous'],
  ] as const)('%s: %s goes to the %s page', (direction, key, move) => {
    expect(pagedKeyMove(key, direction)).toBe(move);
  });

  it('ignores the arrows across the reading axis', () => {
    expect(pagedKeyMove('ArrowUp', 'LEFT_TO_RIGHT')).toBeNull();
    expect(pagedKeyMove('ArrowDown', 'RIGHT_TO_LEFT')).toBeNull();
    expect(pagedKeyMove('ArrowLeft', 'VERTICAL')).toBeNull();
    expect(pagedKeyMove('ArrowRight', 'VERTICAL')).toBeNull();
  });

  it.each(['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT', 'VERTICAL'] as const)(
    '%s: Home, End, PageDown and PageUp do not depend on the direction',
    (direction) => {
      expect(pagedKeyMove('Home', direction)).toBe('first');
      expect(pagedKeyMove('End', direction)).toBe('last');
      expect(pagedKeyMove('PageDown', direction)).toBe('next');
      expect(pagedKeyMove('PageUp', direction)).toBe('previous');
      expect(pagedKeyMove('x', direction)).toBeNull();
    },
  );

  it('names the arrows of each direction for the help', () => {
    expect(pagedArrowKeys('LEFT_TO_RIGHT')).toEqual({ previous: 'ArrowLeft', next: 'ArrowRight' });
    expect(pagedArrowKeys('RIGHT_TO_LEFT')).toEqual({ previous: 'ArrowRight', next: 'ArrowLeft' });
    expect(pagedArrowKeys('VERTICAL')).toEqual({ previous: 'ArrowUp', next: 'ArrowDown' });
  });
});

describe('pagedTapAction', () => {
  it('left to right: the left quarter goes back, the right quarter forward, the middle toggles the toolbars', () => {
    expect(pagedTapAction(0.1, 0.5, 'LEFT_TO_RIGHT')).toBe('previous');
    expect(pagedTapAction(0.9, 0.5, 'LEFT_TO_RIGHT')).toBe('next');
    expect(pagedTapAction(0.5, 0.5, 'LEFT_TO_RIGHT')).toBe('toggleToolbars');
    expect(pagedTapAction(0.26, 0.1, 'LEFT_TO_RIGHT')).toBe('toggleToolbars');
  });

  it('right to left swaps the side zones', () => {
    expect(pagedTapAction(0.1, 0.5, 'RIGHT_TO_LEFT')).toBe('next');
    expect(pagedTapAction(0.9, 0.5, 'RIGHT_TO_LEFT')).toBe('previous');
    expect(pagedTapAction(0.5, 0.5, 'RIGHT_TO_LEFT')).toBe('toggleToolbars');
  });

  it('vertical uses the top and bottom quarters', () => {
    expect(pagedTapAction(0.1, 0.1, 'VERTICAL')).toBe('previous');
    expect(pagedTapAction(0.9, 0.9, 'VERTICAL')).toBe('next');
    expect(pagedTapAction(0.1, 0.5, 'VERTICAL')).toBe('toggleToolbars');
  });

  it('continuous: top quarter up, bottom quarter down', () => {
    expect(continuousTapAction(0.1)).toBe('previous');
    expect(continuousTapAction(0.5)).toBe('toggleToolbars');
    expect(continuousTapAction(0.8)).toBe('next');
  });
});

describe('swipeMove', () => {
  it('left to right: swiping to the left brings the next page', () => {
    expect(swipeMove(-120, 10, 'LEFT_TO_RIGHT')).toBe('next');
    expect(swipeMove(120, -10, 'LEFT_TO_RIGHT')).toBe('previous');
  });

  it('right to left: swiping to the right brings the next page', () => {
    expect(swipeMove(120, 0, 'RIGHT_TO_LEFT')).toBe('next');
    expect(swipeMove(-120, 0, 'RIGHT_TO_LEFT')).toBe('previous');
  });

  it('vertical: swiping up brings the next page', () => {
    expect(swipeMove(0, -120, 'VERTICAL')).toBe('next');
    expect(swipeMove(5, 120, 'VERTICAL')).toBe('previous');
  });

  it('ignores short moves and moves along the other axis', () => {
    expect(swipeMove(-30, 0, 'LEFT_TO_RIGHT')).toBeNull();
    expect(swipeMove(-80, 200, 'LEFT_TO_RIGHT')).toBeNull();
    expect(swipeMove(-200, 80, 'VERTICAL')).toBeNull();
  });
});
