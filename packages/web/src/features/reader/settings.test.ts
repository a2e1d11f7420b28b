import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_PREFERENCES,
  PREFERENCES_STORAGE_KEY,
  getPreferences,
  mergeWithDefaults,
  resetPreferences,
  type Preferences,
} from '../../app/preferences';
import {
  cycle,
  PAGED_SCALES,
  saveEpubReaderSettings,
  saveThumbnailsPageSize,
  saveWebReaderSettings,
  validEpubReader,
  validWebReader,
} from './settings';

/** What a new visit would read back from the browser's storage. */
function reloaded(): Preferences {
  const raw = localStorage.getItem(PREFERENCES_STORAGE_KEY);
  return mergeWithDefaults(DEFAULT_PREFERENCES, raw ? JSON.parse(raw) : undefined);
}

afterEach(() => resetPreferences());

describe('reader settings persistence', () => {
  it('remembers web reader settings in the browser, merging nested groups', () => {
    saveWebReaderSettings({ paged: { scale: 'width' }, background: 'white' });
    saveWebReaderSettings({ paged: { pageLayout: 'double' }, readingDirection: 'RIGHT_TO_LEFT' });
    saveWebReaderSettings({ continuous: { padding: 10, margin: 5 }, swipe: true, animations: false });

    const webreader = validWebReader(reloaded().webreader);
    expect(webreader).toEqual({
      ...DEFAULT_PREFERENCES.webreader,
      paged: { scale: 'width', pageLayout: 'double' },
      continuous: { scale: 'width', padding: 10, margin: 5 },
      readingDirection: 'RIGHT_TO_LEFT',
      swipe: true,
      animations: false,
      background: 'white',
    });
    expect(getPreferences().webreader).toEqual(webreader);
  });

  it('remembers EPUB settings and the thumbnail page size', () => {
    saveEpubReaderSettings({ appearance: 'sepia', columns: 'two', fontSize: 120, fontFamily: 'serif' });
    saveThumbnailsPageSize(50);
    const stored = reloaded();
    expect(validEpubReader(stored.epubreader)).toMatchObject({
      appearance: 'sepia',
      columns: 'two',
      fontSize: 120,
      fontFamily: 'serif',
      layout: 'paginated',
    });
    expect(stored.thumbnailsPageSize).toBe(50);
  });

  it('falls back to the default for each value that is not one of its options', () => {
    const stored = {
      ...DEFAULT_PREFERENCES.webreader,
      paged: { scale: 'zoom', pageLayout: 'triple' },
      continuous: { scale: 'width', padding: 7, margin: 15 },
      readingDirection: 'DIAGONAL',
      background: 'pink',
    } as unknown as Preferences['webreader'];
    expect(validWebReader(stored)).toEqual({
      ...DEFAULT_PREFERENCES.webreader,
      continuous: { scale: 'width', padding: 0, margin: 15 },
    });
    const epub = { ...DEFAULT_PREFERENCES.epubreader, appearance: 'dusk', fontSize: 5000, lineHeight: 0 };
    expect(validEpubReader(epub as unknown as Preferences['epubreader'])).toEqual(DEFAULT_PREFERENCES.epubreader);
  });

  it('cycles through options and wraps around', () => {
    expect(cycle(PAGED_SCALES, 'screen')).toBe('width');
    expect(cycle(PAGED_SCALES, 'original')).toBe('screen');
  });
});
