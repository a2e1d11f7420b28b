/**
 * Value checks shared by the importers and the edit endpoints (spec.md §5): ISBNs, BCP 47 language tags,
 * web links, calendar dates.
 */

const isbn13CheckDigit = (first12: string): number => {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
};

/** 13 digits, prefix 978 or 979 (the Bookland EANs), valid check digit. */
export function isIsbn13(digits: string): boolean {
  return /^97[89]\d{10}$/.test(digits) && isbn13CheckDigit(digits) === Number(digits[12]);
}

function isIsbn10(chars: string): boolean {
  if (!/^\d{9}[\dX]$/.test(chars)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (chars[i] === 'X' ? 10 : Number(chars[i])) * (10 - i);
  return sum % 11 === 0;
}

/**
 * An ISBN as written in metadata files (engine.md §6.3 GTIN, §6.5): ISBN-13 or ISBN-10, with `-` or space
 * separators and an optional `ISBN`, `ISBN-13:`, `urn:isbn:` prefix. Returns the 13 digits (ISBN-10 converted
 * with the 978 prefix), or null when the text is not a valid ISBN.
 */
export function isbnFromText(text: string | null | undefined): string | null {
  if (!text) return null;
  const bare = text
    .trim()
    .replace(/^(?:urn:)?isbn(?:-1[03])?:?\s*/i, '')
    .replace(/[-\s]/g, '')
    .toUpperCase();
  if (isIsbn13(bare)) return bare;
  if (isIsbn10(bare)) {
    const first12 = `978${bare.slice(0, 9)}`;
    return `${first12}${isbn13CheckDigit(first12)}`;
  }
  return null;
}

/**
 * The edit rule (spec.md §5 "ISBN must be a valid ISBN-13"): an ISBN-13 with its check digit, hyphens or spaces
 * allowed between groups. Returns the digits to store, or null when invalid.
 */
export function isbn13FromInput(text: string): string | null {
  const digits = text.trim().replace(/[-\s]/g, '');
  return isIsbn13(digits) ? digits : null;
}

let languageNames: Intl.DisplayNames | undefined;
const knownLanguage = (language: string) =>
  (languageNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })).of(language) !== undefined;

/**
 * A BCP 47 tag in its canonical form (`en-us` → `en-US`, `fra` → `fr`, `iw` → `he`), or null when the text is
 * not a well-formed tag or its primary language is not an ISO 639 language (`japanese`, `xx`, `und`), which is
 * the check Komga makes with ICU (engine.md §1.5, §6.3).
 */
export function canonicalLanguage(text: string | null | undefined): string | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  let tag: string;
  try {
    [tag = ''] = Intl.getCanonicalLocales(trimmed);
  } catch {
    return null;
  }
  const language = new Intl.Locale(tag).language;
  if (!/^[a-z]{2,3}$/.test(language) || language === 'und' || !knownLanguage(language)) return null;
  return tag;
}

/** Why a link URL is refused, or null when it is an absolute http(s) URL with a host. */
export function linkUrlProblem(url: string): 'invalid' | 'scheme' | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return 'invalid';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'scheme';
  return parsed.hostname ? null : 'invalid';
}

/** `YYYY-MM-DD` naming a real calendar day (2021-02-29 is refused). */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  return calendarDate(Number(m[1]), Number(m[2]), Number(m[3])) === text;
}

/** The `YYYY-MM-DD` of a real calendar day, or null (month 13, February 30, year 0 or beyond 9999). */
export function calendarDate(year: number, month: number, day: number): string | null {
  if (![year, month, day].every(Number.isInteger) || year < 1 || year > 9999) return null;
  if (month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate();
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 ? (leap ? 29 : 28) : daysInMonth)) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
