/**
 * The list a detail page was reached from (`?context=readlist&contextId=…`, or `collection`): the back arrow returns
 * there, and a book's previous/next follow the read list. Komga's upper-case values are accepted too, so its links
 * keep working.
 */
export type ItemContext = { type: 'readlist'; id: string } | { type: 'collection'; id: string };

export function parseContext(search: URLSearchParams): ItemContext | undefined {
  const type = search.get('context')?.toLowerCase();
  const id = search.get('contextId');
  if (!id) return undefined;
  if (type === 'readlist') return { type: 'readlist', id };
  if (type === 'collection') return { type: 'collection', id };
  return undefined;
}

/** The query string that carries `context` along (`?context=…&contextId=…`, or ''). */
export function contextQuery(context: ItemContext | undefined): string {
  if (!context) return '';
  return `?${new URLSearchParams({ context: context.type, contextId: context.id }).toString()}`;
}

export const bookPath = (id: string, context?: ItemContext) =>
  `/book/${encodeURIComponent(id)}${contextQuery(context)}`;
export const seriesPath = (series: { id: string; oneshot: boolean }, context?: ItemContext) =>
  `/${series.oneshot ? 'oneshot' : 'series'}/${encodeURIComponent(series.id)}${contextQuery(context)}`;
