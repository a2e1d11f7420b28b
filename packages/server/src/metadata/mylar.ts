import { emptySeriesPatch, type SeriesMetadataPatch, type Skipped } from './patch.js';
import { nonBlank } from './text.js';

/**
 * Mylar's `series.json` (engine.md §6.6), beside the books of a series. Komga ignores the file when any of
 * its required keys is missing; here each key stands on its own: a file without `status` still gives the
 * title, publisher, summary and book count, and what was missing is reported in `skipped`.
 */

export interface MylarSeries {
  series: SeriesMetadataPatch;
  skipped: Skipped[];
}

export const MYLAR_FILE = 'series.json';

/** Mylar `age_rating` (engine.md §6.4), exact values. */
const AGE_RATINGS: Record<string, number> = { All: 0, '9+': 9, '12+': 12, '15+': 15, '17+': 17, Adult: 18 };
const STATUSES: Record<string, SeriesMetadataPatch['status']> = { Ended: 'ENDED', Continuing: 'ONGOING' };

const str = (v: unknown): string | null => (typeof v === 'string' ? nonBlank(v) : null);
const int = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
  return null;
};

/** Null when the text is not JSON or has no `metadata` object. */
export function parseMylarSeries(json: string): MylarSeries | null {
  let root: unknown;
  try {
    root = JSON.parse(json);
  } catch {
    return null;
  }
  const metadata = (root as { metadata?: unknown } | null)?.metadata;
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return null;
  const m = metadata as Record<string, unknown>;
  const series = emptySeriesPatch();
  const skipped: Skipped[] = [];
  const skip = (field: string, value: unknown, reason: string) =>
    skipped.push({ field, value: value === undefined ? '' : JSON.stringify(value), reason });

  const name = str(m.name);
  const volume = int(m.volume);
  const year = int(m.year);
  if (!name) skip('name', m.name, 'missing');
  else if (volume === null || volume === 1) series.title = name;
  else if (year !== null) series.title = `${name} (${year})`;
  else {
    series.title = name;
    skip('year', m.year, 'missing: volume other than 1 without a year to tell it apart');
  }
  series.titleSort = series.title;

  const status = str(m.status);
  if (status && STATUSES[status]) series.status = STATUSES[status];
  else skip('status', m.status, status ? 'unknown value' : 'missing');

  series.summary = str(m.description_formatted) ?? str(m.description_text);
  series.publisher = str(m.publisher);

  if (m.age_rating !== null && m.age_rating !== undefined) {
    const rating = typeof m.age_rating === 'string' ? AGE_RATINGS[m.age_rating] : undefined;
    if (rating !== undefined) series.ageRating = rating;
    else skip('age_rating', m.age_rating, 'unknown value');
  }

  const total = int(m.total_issues);
  if (total !== null && total > 0) series.totalBookCount = total;
  else if (m.total_issues !== null && m.total_issues !== undefined) skip('total_issues', m.total_issues, 'not a count');

  return { series, skipped };
}
