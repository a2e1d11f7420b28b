import { useMemo } from 'react';
import {
  DEFAULT_PREFERENCES,
  getPreferences,
  updatePreferences,
  usePreferences,
  type ContinuousScale,
  type EpubReaderPreferences,
  type PagedScale,
  type PageLayout,
  type ReaderBackground,
  type ReadingDirection,
  type WebReaderPreferences,
} from '../../app/preferences';

/**
 * The readers' settings, remembered per browser in the preferences store ('webreader' and 'epubreader'). The store
 * only checks types, so every value read back is checked against its options here: a stale or hand-edited value
 * falls back to the default instead of breaking the reader.
 */

export const READING_DIRECTIONS: readonly ReadingDirection[] = [
  'LEFT_TO_RIGHT',
  'RIGHT_TO_LEFT',
  'VERTICAL',
  'WEBTOON',
];
export const PAGED_SCALES: readonly PagedScale[] = ['screen', 'width', 'width-shrink', 'height', 'original'];
export const PAGE_LAYOUTS: readonly PageLayout[] = ['single', 'double', 'double-no-cover'];
export const CONTINUOUS_SCALES: readonly ContinuousScale[] = ['width', 'original'];
export const BACKGROUNDS: readonly ReaderBackground[] = ['black', 'gray', 'white'];
/** Side padding of the continuous reader, percent of the width on each side. */
export const SIDE_PADDINGS: readonly number[] = [0, 5, 10, 15, 20, 25, 30, 35, 40];
/** Space between pages of the continuous reader, px. */
export const PAGE_MARGINS: readonly number[] = [0, 5, 10, 15];
export const THUMBNAIL_PAGE_SIZES: readonly number[] = [10, 20, 50, 100];

export const EPUB_APPEARANCES: readonly EpubReaderPreferences['appearance'][] = ['day', 'sepia', 'night'];
export const EPUB_COLUMNS: readonly EpubReaderPreferences['columns'][] = ['auto', 'one', 'two'];
export const EPUB_DIRECTIONS: readonly EpubReaderPreferences['direction'][] = ['auto', 'ltr', 'rtl'];
export const EPUB_LAYOUTS: readonly EpubReaderPreferences['layout'][] = ['paginated', 'scroll'];
export const EPUB_NAVIGATIONS: readonly EpubReaderPreferences['navigation'][] = ['both', 'buttons', 'click'];
/** Font size, percent of the publication's. */
export const EPUB_FONT_SIZE = { min: 50, max: 300, step: 10 } as const;
export const EPUB_LINE_HEIGHT = { min: 1, max: 2.5, step: 0.1 } as const;
export const EPUB_PAGE_MARGINS = { min: 0.5, max: 4, step: 0.25 } as const;

const oneOf = <T>(options: readonly T[], value: unknown, fallback: T): T =>
  options.includes(value as T) ? (value as T) : fallback;

const inRange = (value: unknown, range: { min: number; max: number }, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= range.min && value <= range.max ? value : fallback;

/** The web reader settings with every invalid value replaced by its default. */
export function validWebReader(stored: WebReaderPreferences): WebReaderPreferences {
  const d = DEFAULT_PREFERENCES.webreader;
  return {
    paged: {
      scale: oneOf(PAGED_SCALES, stored.paged?.scale, d.paged.scale),
      pageLayout: oneOf(PAGE_LAYOUTS, stored.paged?.pageLayout, d.paged.pageLayout),
    },
    continuous: {
      scale: oneOf(CONTINUOUS_SCALES, stored.continuous?.scale, d.continuous.scale),
      padding: oneOf(SIDE_PADDINGS, stored.continuous?.padding, d.continuous.padding),
      margin: oneOf(PAGE_MARGINS, stored.continuous?.margin, d.continuous.margin),
    },
    readingDirection: oneOf<ReadingDirection | null>(READING_DIRECTIONS, stored.readingDirection, null),
    swipe: typeof stored.swipe === 'boolean' ? stored.swipe : d.swipe,
    alwaysFullscreen: typeof stored.alwaysFullscreen === 'boolean' ? stored.alwaysFullscreen : d.alwaysFullscreen,
    animations: typeof stored.animations === 'boolean' ? stored.animations : d.animations,
    background: oneOf(BACKGROUNDS, stored.background, d.background),
  };
}

/** The EPUB reader settings with every invalid value replaced by its default. */
export function validEpubReader(stored: EpubReaderPreferences): EpubReaderPreferences {
  const d = DEFAULT_PREFERENCES.epubreader;
  return {
    appearance: oneOf(EPUB_APPEARANCES, stored.appearance, d.appearance),
    columns: oneOf(EPUB_COLUMNS, stored.columns, d.columns),
    direction: oneOf(EPUB_DIRECTIONS, stored.direction, d.direction),
    layout: oneOf(EPUB_LAYOUTS, stored.layout, d.layout),
    navigation: oneOf(EPUB_NAVIGATIONS, stored.navigation, d.navigation),
    fontSize: inRange(stored.fontSize, EPUB_FONT_SIZE, d.fontSize),
    lineHeight: inRange(stored.lineHeight, EPUB_LINE_HEIGHT, d.lineHeight),
    pageMargins: inRange(stored.pageMargins, EPUB_PAGE_MARGINS, d.pageMargins),
    fontFamily: typeof stored.fontFamily === 'string' && stored.fontFamily ? stored.fontFamily : null,
  };
}

export function useWebReaderSettings(): WebReaderPreferences {
  const stored = usePreferences((p) => p.webreader);
  return useMemo(() => validWebReader(stored), [stored]);
}

export function useEpubReaderSettings(): EpubReaderPreferences {
  const stored = usePreferences((p) => p.epubreader);
  return useMemo(() => validEpubReader(stored), [stored]);
}

export function useThumbnailsPageSize(): number {
  const stored = usePreferences((p) => p.thumbnailsPageSize);
  return oneOf(THUMBNAIL_PAGE_SIZES, stored, DEFAULT_PREFERENCES.thumbnailsPageSize);
}

type WebReaderPatch = Partial<Omit<WebReaderPreferences, 'paged' | 'continuous'>> & {
  paged?: Partial<WebReaderPreferences['paged']>;
  continuous?: Partial<WebReaderPreferences['continuous']>;
};

/** Remembers changed web reader settings (nested groups are merged). */
export function saveWebReaderSettings(patch: WebReaderPatch): void {
  updatePreferences((p) => {
    const current = validWebReader(p.webreader);
    return {
      ...p,
      webreader: {
        ...current,
        ...patch,
        paged: { ...current.paged, ...patch.paged },
        continuous: { ...current.continuous, ...patch.continuous },
      },
    };
  });
}

export function saveEpubReaderSettings(patch: Partial<EpubReaderPreferences>): void {
  updatePreferences((p) => ({ ...p, epubreader: { ...validEpubReader(p.epubreader), ...patch } }));
}

export function saveThumbnailsPageSize(size: number): void {
  updatePreferences((p) => ({ ...p, thumbnailsPageSize: size }));
}

/** The value after `current` in `options`, wrapping around (the cycling shortcuts). */
export function cycle<T>(options: readonly T[], current: T): T {
  const index = options.indexOf(current);
  return options[(index + 1) % options.length]!;
}

/** The web reader settings as stored now (outside React). */
export const currentWebReaderSettings = () => validWebReader(getPreferences().webreader);
