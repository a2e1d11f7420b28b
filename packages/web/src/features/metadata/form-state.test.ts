import { describe, expect, it } from 'vitest';
import { changesOf, commonLock, commonValue, initialState, isMixed, setValue, toggleLock } from './form-state';

const init = () =>
  initialState({
    values: { title: 'A', tags: ['x'], ageRating: '' },
    locks: { title: false, tags: true, ageRating: null },
    mixed: { ageRating: true },
  });

describe('edit form state', () => {
  it('sends nothing when nothing changed', () => {
    expect(changesOf(init())).toEqual({});
  });

  it('locks an edited field and sends it with its lock', () => {
    const s = setValue(init(), 'title', 'B');
    expect(s.locks.title).toBe(true);
    expect(changesOf(s)).toEqual({ title: 'B', titleLock: true });
  });

  it('does not send a value edited back to what it was, but keeps its new lock', () => {
    const s = setValue(setValue(init(), 'title', 'B'), 'title', 'A');
    expect(changesOf(s)).toEqual({ titleLock: true });
  });

  it('sends a lock toggled on its own', () => {
    expect(changesOf(toggleLock(init(), 'tags'))).toEqual({ tagsLock: false });
  });

  it('sends a mixed field once edited, even back to empty, and converts values', () => {
    const s = init();
    expect(isMixed(s, 'ageRating')).toBe(true);
    const edited = setValue(setValue(s, 'ageRating', '3'), 'ageRating', '');
    expect(isMixed(edited, 'ageRating')).toBe(false);
    expect(changesOf(edited, { ageRating: (v) => (v ? Number(v) : null) })).toEqual({
      ageRating: null,
      ageRatingLock: true,
    });
  });

  it('a mixed lock becomes locked when toggled', () => {
    expect(changesOf(toggleLock(init(), 'ageRating'))).toEqual({ ageRatingLock: true });
  });

  it('finds common values and locks of several items', () => {
    expect(commonLock([true, true])).toBe(true);
    expect(commonLock([true, false])).toBeNull();
    expect(commonValue([['a'], ['a']], [])).toEqual({ value: ['a'], mixed: false });
    expect(commonValue([['a'], ['b']], [] as string[])).toEqual({ value: [], mixed: true });
  });
});
