import type { AggregationRecord, AggregationSource, Author } from '../domain/metadata.js';
import { emptySeriesPatch, normalizeTerms, type SeriesMetadataPatch } from './patch.js';

/**
 * Series metadata from its books' patches (engine.md §6.8): the most frequent value for single fields (ties:
 * the first seen, in book order), the union of genres and collections, the largest age rating and total book
 * count. A series summary never comes from its books (the aggregation below covers that).
 */
export function aggregateSeriesPatches(patches: readonly SeriesMetadataPatch[]): SeriesMetadataPatch {
  const out = emptySeriesPatch();
  if (patches.length === 0) return out;
  const mostFrequent = <K extends keyof SeriesMetadataPatch>(key: K): SeriesMetadataPatch[K] | null => {
    const counts = new Map<unknown, number>();
    for (const p of patches) if (p[key] !== null) counts.set(p[key], (counts.get(p[key]) ?? 0) + 1);
    let best: SeriesMetadataPatch[K] | null = null;
    let bestCount = 0;
    for (const [value, count] of counts)
      if (count > bestCount) {
        best = value as SeriesMetadataPatch[K];
        bestCount = count;
      }
    return best;
  };
  out.title = mostFrequent('title');
  out.titleSort = mostFrequent('titleSort');
  out.status = mostFrequent('status');
  out.language = mostFrequent('language');
  out.readingDirection = mostFrequent('readingDirection');
  out.publisher = mostFrequent('publisher');
  const genres = patches.flatMap((p) => p.genres ?? []);
  out.genres = genres.length > 0 ? normalizeTerms(genres) : null;
  const max = (values: (number | null)[]) => {
    const present = values.filter((v): v is number => v !== null);
    return present.length > 0 ? Math.max(...present) : null;
  };
  out.ageRating = max(patches.map((p) => p.ageRating));
  out.totalBookCount = max(patches.map((p) => p.totalBookCount));
  out.collections = [...new Set(patches.flatMap((p) => p.collections))];
  return out;
}

/**
 * The book-metadata aggregation stored per series (engine.md §6.9), from its books in `numberSort` order:
 * distinct authors in order of first appearance, the union of tags, the earliest release date, and the
 * summary (with its book number) of the first book that has one.
 */
export function aggregateBooks(books: readonly AggregationSource[]): AggregationRecord {
  const authors: Author[] = [];
  const seen = new Set<string>();
  for (const b of books)
    for (const a of b.authors) {
      const key = `${a.role}\u0000${a.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      authors.push({ name: a.name, role: a.role });
    }
  const tags = [...new Set(books.flatMap((b) => b.tags))].sort();
  const dates = books.map((b) => b.releaseDate).filter((d): d is string => d !== null);
  const withSummary = books.find((b) => b.summary.trim() !== '');
  return {
    authors,
    tags,
    releaseDate: dates.length > 0 ? dates.reduce((a, b) => (b < a ? b : a)) : null,
    summary: withSummary?.summary ?? '',
    summaryNumber: withSummary?.number ?? '',
  };
}
