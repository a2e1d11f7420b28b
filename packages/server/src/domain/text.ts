/**
 * How names and titles compare, whatever stores them: lower case, accents and ligatures removed (ASCII folding, as
 * Komga's analyzers and collations do), Unicode-aware. Search documents (db/search/text.ts), sort keys and the
 * duplicate checks of metadata edits all fold this way.
 */

const LIGATURES: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};
const LIGATURE_RE = new RegExp(`[${Object.keys(LIGATURES).join('')}]`, 'g');
const MARKS = /\p{M}+/gu;

/** Lower case without accents or ligatures; Hangul and other composed scripts stay composed. */
export function fold(value: string): string {
  return value
    .toLowerCase()
    .normalize('NFD')
    .replace(MARKS, '')
    .normalize('NFC')
    .replace(LIGATURE_RE, (c) => LIGATURES[c] ?? c);
}

/** `fold`, trimmed, with every run of white space collapsed: the key titles and names sort and compare by. */
export function sortKey(value: string): string {
  return fold(value).trim().replace(/\s+/gu, ' ');
}
