import { collatorCompare, stripAccents } from '../domain/natural-sort.js';

/*
 * The `search` parameter of the collection and read-list lists (api.md §5.2: full text on the name).
 * Komga's index is n-grams of 3 to 10 characters with AND between terms, so a term of 3 letters or more
 * matches inside words and a shorter one only as a whole word; case and accents are ignored.
 * Results come by relevance: whole words first, then word starts, then inside words; ties by name.
 */

const normalise = (s: string) => stripAccents(s).toLowerCase();
const words = (s: string) =>
  normalise(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Terms of a query; Lucene's quotes, wildcards and operators are not part of any name. */
function terms(query: string): string[] {
  return words(query.replace(/\b(AND|OR|NOT)\b/g, ' '));
}

/** A scorer for `query`: null for names that don't match, else a relevance (higher is better). */
export function nameMatcher(query: string): (name: string) => number | null {
  const wanted = terms(query);
  return (name) => {
    if (wanted.length === 0) return null;
    const nameWords = words(name);
    const joined = nameWords.join(' ');
    let score = 0;
    for (const term of wanted) {
      if (nameWords.includes(term)) score += 3;
      else if (term.length >= 3 && nameWords.some((w) => w.startsWith(term))) score += 2;
      else if (term.length >= 3 && joined.includes(term)) score += 1;
      else return null;
    }
    return score;
  };
}

/** Names in Komga's list order: Unicode collation, case and accents ignored. */
export const compareNames = (a: string, b: string) => collatorCompare(a, b);

export interface Paging {
  offset: number;
  limit?: number;
}

export const pageOf = <T>(items: readonly T[], paging?: Paging): T[] =>
  paging
    ? items.slice(paging.offset, paging.limit === undefined ? undefined : paging.offset + paging.limit)
    : [...items];
