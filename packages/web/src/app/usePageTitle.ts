import { useEffect } from 'react';

export const APP_NAME = 'Quire';

/**
 * Sets `document.title` for a screen whose route has `handle: { ownTitle: true }` (reader, book and series routes).
 * Every other route gets the product name back on navigation (see `TitleReset` in router.tsx).
 */
export function usePageTitle(title: string | undefined | null): void {
  useEffect(() => {
    if (title) document.title = `${title} - ${APP_NAME}`;
  }, [title]);
}
