/**
 * The client-side checks of spec §5 for the edit dialogs. Each returns the i18n key of its message
 * (`metadata.validation.*`, `common.required`) or null; the server re-checks everything and its 400s are shown too.
 */

export type MessageKey = `metadata.validation.${string}` | 'common.required';

export const required = (value: string): MessageKey | null => (value.trim() ? null : 'common.required');

/** ISBN-13 with a valid check digit; hyphens and spaces are allowed between digits. Blank is valid (clears it). */
export function isbnProblem(value: string): MessageKey | null {
  const raw = value.trim();
  if (!raw) return null;
  if (!/^[0-9][0-9 -]*[0-9]$/.test(raw)) return 'metadata.validation.isbn';
  const digits = raw.replace(/[ -]/g, '');
  if (digits.length !== 13) return 'metadata.validation.isbn';
  const sum = [...digits.slice(0, 12)].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10 === Number(digits[12]) ? null : 'metadata.validation.isbn';
}

/** `YYYY-MM-DD`, ten characters, and a day that exists. Blank is valid (clears it). */
export function dateProblem(value: string): MessageKey | null {
  if (!value) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return 'metadata.validation.date';
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  const real = date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
  return real ? null : 'metadata.validation.date';
}

/** A link's address: it must parse as an absolute URL, with the http or https scheme. */
export function urlProblem(value: string): MessageKey | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return 'metadata.validation.url';
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'metadata.validation.urlScheme';
}

/** An IETF BCP 47 language tag (well-formed, as the browser's Intl checks it). Blank is valid (clears it). */
export function languageProblem(value: string): MessageKey | null {
  const tag = value.trim();
  if (!tag) return null;
  try {
    Intl.getCanonicalLocales(tag);
    return null;
  } catch {
    return 'metadata.validation.language';
  }
}

/** A whole number of at least `min`; blank is valid (clears it). */
export function minimumProblem(value: string, min: 0 | 1): MessageKey | null {
  const raw = value.trim();
  if (!raw) return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    return min === 0 ? 'metadata.validation.ageRating' : 'metadata.validation.totalBookCount';
  return null;
}

/** A decimal number (book sort number); required. */
export function numberSortProblem(value: string): MessageKey | null {
  if (!value.trim()) return 'common.required';
  return Number.isFinite(Number(value)) ? null : 'metadata.validation.number';
}

/** Case- and accent-insensitive form of a name, for duplicate checks and searching. */
export function foldName(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase().trim();
}

/** Index of every entry whose key repeats an earlier one (case- and accent-insensitive). */
export function duplicateIndexes(keys: readonly string[]): Set<number> {
  const seen = new Set<string>();
  const dupes = new Set<number>();
  keys.forEach((key, i) => {
    const k = foldName(key);
    if (!k) return;
    if (seen.has(k)) dupes.add(i);
    seen.add(k);
  });
  return dupes;
}

/**
 * The form field a server violation concerns: the last segment of its `fieldName` (`updateMetadata.isbn`,
 * `links.0.url`, `metadata.title`) that names one of `fields`, else null (shown for the whole dialog).
 */
export function violationField<F extends string>(fieldName: string, fields: readonly F[]): F | null {
  const segments = fieldName.split(/[.[\]]+/).filter(Boolean);
  for (let i = segments.length - 1; i >= 0; i--) {
    const hit = fields.find((f) => f === segments[i]);
    if (hit) return hit;
  }
  return null;
}
