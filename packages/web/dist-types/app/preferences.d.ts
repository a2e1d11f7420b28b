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
/** The remembered sub-view of a library (spec §2). */
export type LibraryView = 'RECOMMENDED' | 'BROWSE' | 'COLLECTIONS' | 'READLISTS';
export interface WebReaderPreferences {
    paged: {
        scale: PagedScale;
        pageLayout: PageLayout;
    };
    continuous: {
        scale: ContinuousScale; /** side padding, percent of the width */
        padding: number;
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
    /** An interface language code; 'en' is also the fallback. */
    locale: string;
    theme: ThemePreference;
    webreader: WebReaderPreferences;
    epubreader: EpubReaderPreferences;
    /** Page size shared by every browse grid. */
    browsingPageSize: number;
    collection: {
        filters: Record<string, ActiveFilters>;
    };
    readList: {
        filters: Record<string, ActiveFilters>;
    };
    /** Keyed by library id, or 'all' for all libraries. */
    library: {
        filters: Record<string, ActiveFilters>;
        sort: Record<string, SortPreference>;
        view: Record<string, LibraryView>;
    };
    /** The folder last browsed on the import books screen. */
    importPath: string;
    duplicatesNewPageSize: number;
    rememberMe: boolean;
}
export declare const DEFAULT_PREFERENCES: Preferences;
export declare const PREFERENCES_STORAGE_KEY = "quire.preferences";
/** The library id standing for all libraries. */
export declare const ALL_LIBRARIES = "all";
/** The remembered view of a library: recommended by default, browse for all libraries. */
export declare function libraryView(prefs: Preferences, libraryId: string): LibraryView;
/**
 * Stored values over defaults, keeping only what has the default's type, so a stale or hand-edited entry can never
 * break a screen. Objects are merged key by key; record maps (default `{}`) keep every stored entry.
 */
export declare function mergeWithDefaults<T>(defaults: T, stored: unknown): T;
export declare function getPreferences(): Preferences;
/** Replaces the preferences with what `update` returns (treat the argument as immutable) and persists them. */
export declare function updatePreferences(update: (prefs: Preferences) => Preferences): void;
/** Shorthand for a top-level preference. */
export declare function setPreference<K extends keyof Preferences>(key: K, value: Preferences[K]): void;
/** Back to defaults (tests, and a future "reset" action). */
export declare function resetPreferences(): void;
export declare function usePreferences(): Preferences;
export declare function usePreferences<T>(select: (prefs: Preferences) => T): T;
