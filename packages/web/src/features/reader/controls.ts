import type { ReadingDirection } from '../../app/preferences';

/**
 * How keys, taps and swipes move through a book, per reading direction (ui.md §11.2, §11.6). Pure: the readers turn
 * these answers into page changes.
 */

export type PageMove = 'next' | 'previous' | 'first' | 'last';
export type PagedDirection = Exclude<ReadingDirection, 'WEBTOON'>;

/** The page move of a key in the paged reader, or null. Arrows follow the reading direction. */
export function pagedKeyMove(key: string, direction: PagedDirection): PageMove | null {
  switch (key) {
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'PageDown':
      return 'next';
    case 'PageUp':
      return 'previous';
  }
  if (direction === 'VERTICAL') {
    if (key === 'ArrowDown') return 'next';
    if (key === 'ArrowUp') return 'previous';
    return null;
  }
  const rtl = direction === 'RIGHT_TO_LEFT';
  if (key === 'ArrowRight') return rtl ? 'previous' : 'next';
  if (key === 'ArrowLeft') return rtl ? 'next' : 'previous';
  return null;
}

/** The arrow keys that go to the previous and next page in a direction (for the shortcut help). */
export function pagedArrowKeys(direction: PagedDirection): { previous: string; next: string } {
  if (direction === 'VERTICAL') return { previous: 'ArrowUp', next: 'ArrowDown' };
  return direction === 'RIGHT_TO_LEFT'
    ? { previous: 'ArrowRight', next: 'ArrowLeft' }
    : { previous: 'ArrowLeft', next: 'ArrowRight' };
}

export type TapAction = 'next' | 'previous' | 'toggleToolbars';

/**
 * The action of a tap at a point of the reading area, as fractions (0–1) of its width and height. Horizontal
 * directions: the left and right quarters turn the page (the left one goes back in left-to-right, forward in
 * right-to-left), the middle half shows or hides the toolbars. Vertical: the same with the top and bottom quarters.
 */
export function pagedTapAction(x: number, y: number, direction: PagedDirection): TapAction {
  if (direction === 'VERTICAL') {
    if (y < 0.25) return 'previous';
    if (y > 0.75) return 'next';
    return 'toggleToolbars';
  }
  const rtl = direction === 'RIGHT_TO_LEFT';
  if (x < 0.25) return rtl ? 'next' : 'previous';
  if (x > 0.75) return rtl ? 'previous' : 'next';
  return 'toggleToolbars';
}

/** The continuous reader's zones: top quarter up, bottom quarter down, middle half the toolbars. */
export function continuousTapAction(y: number): TapAction {
  if (y < 0.25) return 'previous';
  if (y > 0.75) return 'next';
  return 'toggleToolbars';
}

/** Shortest travel, in CSS pixels, that counts as a swipe. */
export const SWIPE_MIN_DISTANCE = 50;

/**
 * The page move of a swipe by (dx, dy) pixels, or null when it is too short or along the wrong axis. A swipe drags
 * the page: swiping to the left brings the page on the right, which is the next one in left-to-right and the previous
 * one in right-to-left; in vertical mode swiping up brings the next page.
 */
export function swipeMove(dx: number, dy: number, direction: PagedDirection): 'next' | 'previous' | null {
  if (direction === 'VERTICAL') {
    if (Math.abs(dy) < SWIPE_MIN_DISTANCE || Math.abs(dy) <= Math.abs(dx)) return null;
    return dy < 0 ? 'next' : 'previous';
  }
  if (Math.abs(dx) < SWIPE_MIN_DISTANCE || Math.abs(dx) <= Math.abs(dy)) return null;
  const towardsRight = dx < 0;
  return towardsRight === (direction === 'RIGHT_TO_LEFT') ? 'previous' : 'next';
}

/** Reader shortcuts only fire without modifiers, so browser shortcuts (Ctrl+F, Alt+←…) keep working. */
export const hasModifier = (e: Pick<KeyboardEvent, 'ctrlKey' | 'altKey' | 'metaKey' | 'shiftKey'>) =>
  e.ctrlKey || e.altKey || e.metaKey || e.shiftKey;

/** Keys typed into a field are the field's. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}
