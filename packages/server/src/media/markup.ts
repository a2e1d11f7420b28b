import { decodeHTMLStrict } from 'entities';
import { Parser } from 'htmlparser2';
import { MediaLimitError } from './limits.js';

/**
 * Markup read from book files — EPUB container, OPF, NCX, nav and chapter XHTML, ComicInfo.xml, the HTML of an
 * OPF description — as a small tree that the callers query with Jsoup-like helpers (local names, any prefix).
 *
 * Tokenizing is htmlparser2's. Broken markup is read, never refused: content found in the wild is often not
 * well-formed (undeclared prefixes such as `epub:type`, HTML entities in XML, unclosed `<br>`), and Komga reads it
 * with Jsoup, which never fails either, so a strict XML parser would refuse books that Komga reads. Unmatched end
 * tags are ignored and elements left open are closed at the end of the document.
 *
 * Safe for hostile files: no DTD is read, so no external entity is fetched and no entity declared in a DOCTYPE is
 * expanded (a billion-laughs document stays as short as its text); only the fixed table of HTML named entities
 * and numeric references is decoded. The size of a document is bounded by its callers (`checkMarkupBytes`,
 * QUIRE_MAX_MARKUP_MB) and its depth here ({@link MAX_DEPTH}), the one thing that makes a parse throw.
 *
 * No module state: one parse is one function call, so it runs the same in a worker thread.
 */

export interface XNode {
  /** Qualified name as written (e.g. `dc:title`); lower-cased when parsed in HTML mode. */
  name: string;
  /** Name without prefix. */
  local: string;
  attrs: Record<string, string>;
  children: (XNode | string)[];
  parent: XNode | null;
}

/**
 * Elements nested deeper than this make the document an error (ERR_1008, like every other limit). No real
 * document comes near it (Chromium's HTML parser stops nesting at 512 too), and past it a hostile one costs
 * quadratic time in htmlparser2, which keeps its open elements at the front of an array (200,000 levels took 6 s),
 * and overflows the stack of any recursive walk over the tree.
 */
export const MAX_DEPTH = 512;

function checkDepth(openElements: number): void {
  if (openElements > MAX_DEPTH) throw new MediaLimitError(`markup nested more than ${MAX_DEPTH} elements deep`);
}

/** Elements whose text is script or styling, never content. */
const RAW = new Set(['script', 'style']);

function localOf(name: string): string {
  const i = name.indexOf(':');
  return i >= 0 ? name.slice(i + 1) : name;
}

/**
 * Parses markup into a synthetic root node (name `#root`).
 *
 * XML (the default): names kept as written, `<x/>` closes, CDATA is text, and every HTML named entity is
 * decoded as well as XML's five (`&eacute;` in an OPF is common; Jsoup's XML parser decodes it too).
 * `html`: parsed as a browser would (names lower-cased, void elements, implied end tags, raw `script`/`style`),
 * and, since EPUB chapters are XHTML, CDATA sections are text and `<x/>` closes.
 */
export function parseMarkup(text: string, opts: { html?: boolean } = {}): XNode {
  const html = opts.html ?? false;
  const root: XNode = { name: '#root', local: '#root', attrs: {}, children: [], parent: null };
  // Open elements, as htmlparser2 opens and closes them (every open tag gets exactly one close, implied or not).
  const open: XNode[] = [root];
  // XML text is decoded here (htmlparser2's XML mode knows only XML's five entities), in whole runs: a run can
  // come in several chunks, and an entity must not be split between two of them.
  let pending = '';
  let inCdata = false;
  const append = (s: string) => {
    const parent = open[open.length - 1]!;
    // XML has no text outside its root element; there it is a BOM, or the end of a DOCTYPE's internal subset
    if (!s || (!html && parent === root)) return;
    const children = parent.children;
    const last = children.length - 1;
    if (typeof children[last] === 'string') children[last] += s;
    else children.push(s);
  };
  const flush = () => {
    if (pending) append(pending.includes('&') ? decodeHTMLStrict(pending) : pending);
    pending = '';
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        flush();
        checkDepth(open.length);
        const parent = open[open.length - 1]!;
        const attrs: Record<string, string> = {};
        for (const [key, value] of Object.entries(attribs)) attrs[key] = html ? value : decodeHTMLStrict(value);
        const el: XNode = { name, local: localOf(name), attrs, children: [], parent };
        parent.children.push(el);
        open.push(el);
      },
      onclosetag() {
        flush();
        if (open.length > 1) open.pop();
      },
      ontext(data) {
        if (html || inCdata) append(data);
        else pending += data;
      },
      oncdatastart() {
        flush();
        inCdata = true;
      },
      oncdataend() {
        inCdata = false;
      },
      oncomment: flush,
      onprocessinginstruction: flush,
    },
    html
      ? {
          xmlMode: false,
          decodeEntities: true,
          lowerCaseAttributeNames: false,
          recognizeCDATA: true,
          recognizeSelfClosing: true,
        }
      : { xmlMode: true, decodeEntities: false },
  );
  parser.end(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  flush();
  return root;
}

/**
 * The elements of an HTML document that `wanted` picks, each with the offset just past its end: past its end tag,
 * or, when something else closed it (its parent's end tag, the end of the document), where that begins. Read
 * without building a tree: KEPUB positions only need where each koboSpan ends, in chapters up to the entry limit.
 */
export function elementEnds(
  html: string,
  wanted: (name: string, attrs: Readonly<Record<string, string>>) => boolean,
): { attrs: Record<string, string>; end: number }[] {
  const found: { attrs: Record<string, string>; end: number }[] = [];
  // one entry per open element: the found one, or null
  const open: ({ attrs: Record<string, string>; end: number } | null)[] = [];
  const parser: Parser = new Parser(
    {
      onopentag(name, attrs) {
        checkDepth(open.length + 1);
        const el = wanted(name, attrs) ? { attrs, end: html.length } : null;
        if (el) found.push(el);
        open.push(el);
      },
      onclosetag(_name, isImplied) {
        const el = open.pop();
        if (el) el.end = isImplied ? parser.startIndex : parser.endIndex + 1;
      },
    },
    { xmlMode: false, lowerCaseAttributeNames: false, recognizeCDATA: true, recognizeSelfClosing: true },
  );
  parser.end(html);
  return found;
}

export function elements(node: XNode): XNode[] {
  return node.children.filter((c): c is XNode => typeof c !== 'string');
}

/** Direct children with that local name (case-insensitive, like Jsoup selectors). */
export function childrenNamed(node: XNode, local: string): XNode[] {
  const l = local.toLowerCase();
  return elements(node).filter((c) => c.local.toLowerCase() === l);
}

export function firstChild(node: XNode, local: string): XNode | undefined {
  return childrenNamed(node, local)[0];
}

/** All descendants (document order) with that local name. */
export function descendants(node: XNode, local: string): XNode[] {
  const l = local.toLowerCase();
  const out: XNode[] = [];
  const walk = (x: XNode) => {
    for (const c of x.children) {
      if (typeof c === 'string') continue;
      if (c.local.toLowerCase() === l) out.push(c);
      walk(c);
    }
  };
  walk(node);
  return out;
}

export function firstDescendant(node: XNode, local: string): XNode | undefined {
  return descendants(node, local)[0];
}

/** Text content, script/style excluded. */
export function textContent(node: XNode): string {
  let s = '';
  const walk = (x: XNode) => {
    for (const c of x.children) {
      if (typeof c === 'string') s += c;
      else if (!RAW.has(c.local.toLowerCase())) walk(c);
    }
  };
  walk(node);
  return s;
}

/** Whitespace-normalised text, like Jsoup's `Element.text()`. */
export function normalizedText(node: XNode): string {
  return textContent(node)
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
}

/** Attribute by qualified or local name (any prefix). */
export function attr(node: XNode, name: string): string | undefined {
  if (Object.hasOwn(node.attrs, name)) return node.attrs[name];
  for (const [k, v] of Object.entries(node.attrs)) if (localOf(k) === name) return v;
  return undefined;
}
