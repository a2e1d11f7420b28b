/**
 * Search documents and query words, from text folded as names compare (domain/text.ts `fold`). Documents are stored as space-separated tokens with a space at both ends,
 * so that a short query term can be matched as a whole token (`" x "`) by the trigram tokenizer, and runs of
 * CJK characters also carry their bigrams as tokens, the way Lucene's CJK bigram filter indexes them.
 */

import { fold } from '../../domain/text.js';

// Underscores join words, as in Unicode word segmentation (Lucene keeps `right_to_left` whole).
const SEPARATORS = /[^\p{L}\p{N}\p{M}\p{Pc}]+/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** The words of `value`, folded (punctuation and spaces separate words, as Lucene's standard tokenizer does). */
export function words(value: string): string[] {
  return fold(value)
    .split(SEPARATORS)
    .filter((w) => w.length > 0);
}

export const hasCjk = (word: string) => CJK.test(word);

/** Lone CJK characters and every pair of adjacent ones, from the CJK runs of `word`. */
export function cjkGrams(word: string): string[] {
  const out: string[] = [];
  for (const run of word.match(CJK_RUN) ?? []) {
    const chars = [...run];
    if (chars.length === 1) out.push(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

/** The indexed form of a field: its values' words, CJK bigrams added, one space between, spaces at both ends. */
export function documentField(values: readonly (string | null | undefined)[]): string {
  const tokens: string[] = [];
  for (const value of values) {
    if (!value) continue;
    for (const w of words(value)) {
      tokens.push(w);
      if (hasCjk(w)) for (const g of cjkGrams(w)) if (g !== w) tokens.push(g);
    }
  }
  return tokens.length ? ` ${tokens.join(' ')} ` : '';
}

/**
 * What one query word must match. At least three characters: anywhere inside a word (the n-gram behaviour);
 * shorter: a whole word. All-CJK words match through their bigrams, every one of them required.
 */
export function needles(word: string): string[] {
  if (hasCjk(word) && [...word].every((c) => CJK.test(c))) {
    return cjkGrams(word).map((g) => ` ${g} `);
  }
  return [[...word].length >= 3 ? word : ` ${word} `];
}
