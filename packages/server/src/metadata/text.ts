import { parseMarkup, type XNode } from '../media/markup.js';

/** `a, b ,, c` → `[a, b, c]`: split on a separator, trimmed, blanks dropped. */
export function splitList(text: string | null | undefined, separator: string | RegExp = ','): string[] {
  if (!text) return [];
  return text
    .split(separator)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Trimmed text, or null when blank. */
export const nonBlank = (text: string | null | undefined): string | null => {
  const t = text?.trim();
  return t ? t : null;
};

const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tr',
  'ul',
]);
const SKIPPED = new Set(['script', 'style', 'head', 'title']);

/**
 * Plain text of an HTML fragment (an OPF `dc:description` carries escaped HTML). Komga strips every tag and
 * keeps one long line; here paragraphs and line breaks survive as newlines, runs of spaces collapse, and at
 * most one empty line separates paragraphs.
 */
export function htmlToText(html: string): string {
  if (!html.includes('<')) return tidyText(html);
  let out = '';
  const walk = (node: XNode) => {
    for (const child of node.children) {
      if (typeof child === 'string') {
        out += child;
        continue;
      }
      if (SKIPPED.has(child.local)) continue;
      if (child.local === 'br') {
        out += '\n';
        continue;
      }
      const block = BLOCKS.has(child.local);
      if (block) out += '\n';
      walk(child);
      if (block) out += '\n';
    }
  };
  walk(parseMarkup(html, { html: true }));
  return tidyText(out);
}

/**
 * Text as written in a metadata file, without the indentation of a pretty-printed XML file: each line
 * trimmed, runs of spaces collapsed, at most one empty line between paragraphs.
 */
export function tidyText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
