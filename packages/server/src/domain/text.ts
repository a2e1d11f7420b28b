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

/**
 * The text without the characters XML 1.0 cannot carry at all, even escaped (C0 controls but tab, LF and CR; lone
 * surrogates; U+FFFE and U+FFFF): metadata read from books may hold any of them, and one makes a whole document
 * unreadable.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlCharacters(value: string): string {
  return value.replace(NOT_XML, '');
}
