import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, libraryView, mergeWithDefaults } from './preferences';

describe('preferences', () => {
  it('keeps stored values of the right type and drops the rest', () => {
    const merged = mergeWithDefaults(DEFAULT_PREFERENCES, {
      theme: 'dark',
      browsingPageSize: 'lots',
      webreader: { swipe: true, paged: { scale: 'width' } },
      library: { view: { lib1: 'COLLECTIONS' }, sort: { all: { key: 'name', order: 'desc' } } },
      unknown: 1,
    });
    expect(merged.theme).toBe('dark');
    expect(merged.browsingPageSize).toBe(20);
    expect(merged.webreader.swipe).toBe(true);
    expect(merged.webreader.paged).toEqual({ scale: 'width', pageLayout: 'single' });
    expect(merged.library.view).toEqual({ lib1: 'COLLECTIONS' });
    expect(merged.library.sort.all).toEqual({ key: 'name', order: 'desc' });
    expect(merged.duplicatesNewPageSize).toBe(10);
    expect('unknown' in merged).toBe(false);
  });

  it('falls back to defaults for garbage', () => {
    expect(mergeWithDefaults(DEFAULT_PREFERENCES, 'nope')).toEqual(DEFAULT_PREFERENCES);
  });

  it('defaults a library to recommended and all libraries to browse', () => {
    expect(libraryView(DEFAULT_PREFERENCES, 'lib1')).toBe('RECOMMENDED');
    expect(libraryView(DEFAULT_PREFERENCES, 'all')).toBe('BROWSE');
  });
});
