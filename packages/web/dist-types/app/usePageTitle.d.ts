export declare const APP_NAME = "Quire";
/**
 * Sets `document.title` for a screen whose route has `handle: { ownTitle: true }` (reader, book and series routes).
 * Every other route gets the product name back on navigation (see `TitleReset` in router.tsx).
 */
export declare function usePageTitle(title: string | undefined | null): void;
