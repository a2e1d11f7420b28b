/**
 * Natural ordering, exactly as Komga uses it (engine.md §3.3): the case-insensitive
 * `CaseInsensitiveSimpleNaturalComparator` of `net.grey-panther:natural-comparator:1.1`.
 *
 * Used for book order inside a series (§3.2, on {@link bookSortKey}) and for page order inside
 * archives (§4.2, on the full entry path). Pure; imports nothing.
 */

const TWO_POW_64 = 1n << 64n;
/** Above this a `value * 10 + 9` could leave the exactly-representable integer range. */
const SAFE_ACCUMULATOR = Math.floor((Number.MAX_SAFE_INTEGER - 9) / 10);

/** `Character.toLowerCase(char)` per UTF-16 unit; 0 means "not computed yet" (index 0 maps to 0 anyway). */
const lowerCache = new Uint16Array(65536);

function lowerUnit(c: number): number {
  if (c < 128) return c >= 65 && c <= 90 ? c + 32 : c;
  const cached = lowerCache[c]!;
  if (cached !== 0) return cached;
  let lower: number;
  if (c === 0x0130) {
    // Java's simple case mapping: İ → i. JS full mapping would give two units ("i̇").
    lower = 0x69;
  } else {
    const s = String.fromCharCode(c).toLowerCase();
    // Simple (one unit → one unit) mappings only, as Character.toLowerCase(char).
    lower = s.length === 1 ? s.charCodeAt(0) : c;
  }
  lowerCache[c] = lower;
  return lower;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Reads the digit run starting at `start` (which is a digit) as an unsigned 64-bit value
 * (wrapping modulo 2^64 like Java's `long` arithmetic). Returns the value and the index after the run.
 * A `number` is used while exact; a `bigint` only for runs long enough to need it.
 */
function readNumber(s: string, start: number): { value: number | bigint; end: number } {
  let i = start;
  let n = 0;
  const len = s.length;
  while (i < len) {
    const c = s.charCodeAt(i);
    if (!isDigit(c)) return { value: n, end: i };
    if (n > SAFE_ACCUMULATOR) break;
    n = n * 10 + (c - 48);
    i++;
  }
  if (i >= len) return { value: n, end: i };
  let big = BigInt(n);
  while (i < len) {
    const c = s.charCodeAt(i);
    if (!isDigit(c)) break;
    big = (big * 10n + BigInt(c - 48)) % TWO_POW_64;
    i++;
  }
  return { value: big, end: i };
}

function compareUnsigned(a: number | bigint, b: number | bigint): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Komga's natural comparator, case-insensitive (engine.md §3.3):
 * - walks both strings one UTF-16 unit at a time;
 * - a digit (ASCII 0–9 only) sorts before any non-digit at the same position;
 * - two non-digits compare by `toLowerCase(unit)` difference (no locale, no accent folding);
 * - two digits: the whole digit runs are compared as unsigned 64-bit integers (leading zeros ignored,
 *   overflow wraps), so `z010` == `z10`;
 * - at the end, the string with characters left is greater.
 *
 * The result's sign is what matters; magnitudes are not meaningful.
 */
export function naturalCompare(a: string, b: string): number {
  const len1 = a.length;
  const len2 = b.length;
  let i1 = 0;
  let i2 = 0;
  while (i1 < len1 && i2 < len2) {
    const c1 = a.charCodeAt(i1);
    const c2 = b.charCodeAt(i2);
    const d1 = isDigit(c1);
    const d2 = isDigit(c2);
    if (d1 && !d2) return -1;
    if (!d1 && d2) return 1;
    if (!d1) {
      const diff = lowerUnit(c1) - lowerUnit(c2);
      if (diff !== 0) return diff;
      i1++;
      i2++;
    } else {
      const n1 = readNumber(a, i1);
      const n2 = readNumber(b, i2);
      const cmp = compareUnsigned(n1.value, n2.value);
      if (cmp !== 0) return cmp;
      i1 = n1.end;
      i2 = n2.end;
    }
  }
  if (i1 < len1) return 1;
  if (i2 < len2) return -1;
  return 0;
}

/**
 * Apache `StringUtils.stripAccents`: NFD, map Ł/ł to L/l, then drop `\p{InCombiningDiacriticalMarks}`
 * (the U+0300–U+036F block only, as Java's block class).
 */
export function stripAccents(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]+/g, '')
    .replace(/\u0141/g, 'L')
    .replace(/\u0142/g, 'l');
}

/**
 * The key Komga's `sortBooks` compares (engine.md §3.2 step 2):
 * trim (Kotlin `trim()`: Unicode whitespace) → strip accents → collapse every whitespace run to one
 * space (Java regex `\s`: ASCII whitespace only, as Komga's `"\\s+".toRegex()`).
 */
export function bookSortKey(name: string): string {
  return stripAccents(name.trim()).replace(/[ \t\n\v\f\r]+/g, ' ');
}

/** Natural comparison of two book names on {@link bookSortKey}. */
export function compareBookNames(a: string, b: string): number {
  return naturalCompare(bookSortKey(a), bookSortKey(b));
}

const insensitiveCollator = new Intl.Collator('en', {
  sensitivity: 'base',
  numeric: false,
  ignorePunctuation: false,
});

/**
 * Case- and accent-insensitive collation (ICU via `Intl.Collator`, base strength), for
 * user-facing text sorts where exact Komga ordering is not pinned. Ties broken by code units so
 * the order is total and deterministic.
 */
export function collatorCompare(a: string, b: string): number {
  const c = insensitiveCollator.compare(a, b);
  if (c !== 0) return c;
  return a < b ? -1 : a > b ? 1 : 0;
}
