import { useSyncExternalStore } from 'react';

/**
 * The one store of remembered client preferences (spec §3), persisted to localStorage. Server state lives in
 * TanStack Query; filters, sort and page of the current screen live in the URL; what the browser remembers between
 * visits lives here. Read with `usePreferences(selector)`, write with `updatePreferences(draft => ...)`.
 */

export type ThemePreference = 'light' | 'dark' | 'system';
export type ReadingDirection = 'LEFT_TO_RIGHT' | 'RIGHT_TO_LEFT' | 'VERTICAL' | 'WEBTOON';
export type PagedScale = 'original' | 'width' | 'height' | 'screen' | 'width-shrink';
export type PageLayout = 'single' | 'double' | 'double-no-cover';
export type ContinuousScale = 'original' | 'width';
export type ReaderBackground = 'black' | 'gray' | 'white';
/** Poster size of browse grids. */
export type CardSize = 'small' | 'medium' | 'large';
/** The remembered sub-view of a library (spec §2; BOOKS from ui.md §4.2). */
export type LibraryView = 'RECOMMENDED' | 'BROWSE' | 'BOOKS' | 'COLLECTIONS' | 'READLISTS';

export interface WebReaderPreferences {
  paged: { scale: PagedScale; pageLayout: PageLayout };
  continuous: {
    scale: ContinuousScale;
    /** side padding, percent of the width */ padding: number;
    /** space between pages, px */ margin: number;
  };
  /** null: use the series' reading direction. */
  readingDirection: ReadingDirection | null;
  swipe: boolean;
  alwaysFullscreen: boolean;
  animations: boolean;
  background: ReaderBackground;
}

export interface EpubReaderPreferences {
  appearance: 'day' | 'night' | 'sepia';
  columns: 'auto' | 'one' | 'two';
  direction: 'auto' | 'ltr' | 'rtl';
  layout: 'paginated' | 'scroll';
  navigation: 'buttons' | 'click' | 'both';
  /** Percent of the publication's font size. */
  fontSize: number;
  lineHeight: number;
  pageMargins: number;
  fontFamily: string | null;
}

/** Active filters keyed by filter name: search conditions, or author names. */
export type ActiveFilters = Record<string, readonly unknown[]>;
export interface SortPreference {
  key: string;
  order: 'asc' | 'desc';
}

export interface Preferences {
  /** The interface language the user chose; '' until they choose, when the browser's languages decide. */
  locale: string;
  theme: ThemePreference;
  webreader: WebReaderPreferences;
  epubreader: EpubReaderPreferences;
  /** Page size shared by every browse grid. */
  browsingPageSize: number;
  /** Poster size of browse grids. */
  cardSize: CardSize;
  /** Page size of the reader's thumbnail explorer. */
  thumbnailsPageSize: number;
  collection: { filters: Record<string, ActiveFilters> };
  readList: { filters: Record<string, ActiveFilters> };
  /** Keyed by library id, or 'all' for all libraries. `filters` and `sort` are the series tab's. */
  library: {
    filters: Record<string, ActiveFilters>;
    sort: Record<string, SortPreference>;
    bookFilters: Record<string, ActiveFilters>;
    bookSort: Record<string, SortPreference>;
    view: Record<string, LibraryView>;
  };
  /** The folder last browsed on the import books screen. */
  importPath: string;
  duplicatesNewPageSize: number;
  rememberMe: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = {
  locale: '',
  theme: 'system',
  webreader: {
    paged: { scale: 'screen', pageLayout: 'single' },
    continuous: { scale: 'width', padding: 0, margin: 0 },
    readingDirection: null,
    swipe: false,
    alwaysFullscreen: false,
    animations: true,
    background: 'black',
  },
  epubreader: {
    appearance: 'day',
    columns: 'auto',
    direction: 'auto',
    layout: 'paginated',
    navigation: 'both',
    fontSize: 100,
    lineHeight: 1.4,
    pageMargins: 1,
    fontFamily: null,
  },
  browsingPageSize: 20,
  cardSize: 'medium',
  thumbnailsPageSize: 10,
  collection: { filters: {} },
  readList: { filters: {} },
  library: { filters: {}, sort: {}, bookFilters: {}, bookSort: {}, view: {} },
  importPath: '',
  duplicatesNewPageSize: 10,
  rememberMe: false,
};

export const PREFERENCES_STORAGE_KEY = 'quire.preferences';

/** The library id standing for all libraries. */
export const ALL_LIBRARIES = 'all';

/** The remembered view of a library: recommended by default, browse for all libraries. */
export function libraryView(prefs: Preferences, libraryId: string): LibraryView {
  return prefs.library.view[libraryId] ?? (libraryId === ALL_LIBRARIES ? 'BROWSE' : 'RECOMMENDED');
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Stored values over defaults, keeping only what has the default's type, so a stale or hand-edited entry can never
 * break a screen. Objects are merged key by key; record maps (default `{}`) keep every stored entry.
 */
export function mergeWithDefaults<T>(defaults: T, stored: unknown): T {
  if (!isPlainObject(defaults)) {
    if (stored === undefined) return defaults;
    if (defaults === null) return stored as T;
    return typeof stored === typeof defaults && !isPlainObject(stored) ? (stored as T) : defaults;
  }
  if (!isPlainObject(stored)) return defaults;
  const result: Record<string, unknown> = { ...defaults };
  const isRecordMap = Object.keys(defaults).length === 0;
  for (const [key, value] of Object.entries(stored)) {
    if (key in defaults) result[key] = mergeWithDefaults((defaults as Record<string, unknown>)[key], value);
    else if (isRecordMap) result[key] = value;
  }
  return result as T;
}

function load(): Preferences {
  try {
    const raw = globalThis.localStorage?.getItem(PREFERENCES_STORAGE_KEY);
    return raw ? mergeWithDefaults(DEFAULT_PREFERENCES, JSON.parse(raw)) : DEFAULT_PREFERENCES;
  } catch {
    return DEFAULT_PREFERENCES;
  }
}

let current: Preferences = load();
const listeners = new Set<() => void>();

function emit() {
  listeners.forEach((l) => l());
}

export function getPreferences(): Preferences {
  return current;
}

/** Replaces the preferences with what `update` returns (treat the argument as immutable) and persists them. */
export function updatePreferences(update: (prefs: Preferences) => Preferences): void {
  current = update(current);
  try {
    globalThis.localStorage?.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify(current));
  } catch {
    // Storage full or disabled: the preference still applies for this visit.
  }
  emit();
}

/** Shorthand for a top-level preference. */
export function setPreference<K extends keyof Preferences>(key: K, value: Preferences[K]): void {
  updatePreferences((p) => ({ ...p, [key]: value }));
}

/** Back to defaults (tests, and a future "reset" action). */
export function resetPreferences(): void {
  current = DEFAULT_PREFERENCES;
  try {
    globalThis.localStorage?.removeItem(PREFERENCES_STORAGE_KEY);
  } catch {
    // ignore
  }
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab changed the preferences: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key !== PREFERENCES_STORAGE_KEY) return;
    current = load();
    emit();
  });
}

const identity = (p: Preferences) => p;

export function usePreferences(): Preferences;
export function usePreferences<T>(select: (prefs: Preferences) => T): T;
export function usePreferences<T>(select: (prefs: Preferences) => T = identity as (p: Preferences) => T): T {
  return useSyncExternalStore(
    subscribe,
    () => select(current),
    () => select(current),
  );
}
