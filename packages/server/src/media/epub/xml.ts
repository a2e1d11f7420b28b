/**
 * A small, forgiving XML/XHTML tree builder. EPUB content found in the wild is often not well-formed
 * (undeclared prefixes such as `epub:type`, HTML entities, unclosed `<br>`), and Komga parses it with
 * Jsoup which never fails; strict XML parsers would reject such books. This tokenizer never throws:
 * unmatched end tags are ignored, unclosed elements are closed at the end of their parent.
 */

export interface XNode {
  /** Qualified name as written (e.g. `dc:title`). */
  name: string;
  /** Name without prefix, lower-cased when parsed in HTML mode. */
  local: string;
  attrs: Record<string, string>;
  children: (XNode | string)[];
  parent: XNode | null;
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const RAW = new Set(['script', 'style']);

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  eacute: 'é',
  egrave: 'è',
  agrave: 'à',
  ccedil: 'ç',
  ecirc: 'ê',
  ouml: 'ö',
  uuml: 'ü',
  auml: 'ä',
  szlig: 'ß',
  middot: '·',
  bull: '•',
  deg: '°',
  shy: '\u00ad',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
  zwnj: '\u200c',
  zwj: '\u200d',
};

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);/g, (m, ent: string) => {
    if (ent[0] === '#') {
      const cp = ent[1] === 'x' || ent[1] === 'X' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return NAMED[ent] ?? NAMED[ent.toLowerCase()] ?? m;
  });
}

const ATTR = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g;

function parseAttrs(src: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of src.matchAll(ATTR)) {
    const key = m[1]!;
    if (key in attrs) continue;
    attrs[key] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

function localOf(name: string): string {
  const i = name.indexOf(':');
  return i >= 0 ? name.slice(i + 1) : name;
}

/** Parses markup into a synthetic root node (name `#root`). `html` lower-cases names and knows void elements. */
export function parseMarkup(text: string, opts: { html?: boolean } = {}): XNode {
  const html = opts.html ?? false;
  const root: XNode = { name: '#root', local: '#root', attrs: {}, children: [], parent: null };
  let cur = root;
  let i = 0;
  const n = text.length;
  const pushText = (t: string) => {
    if (t) cur.children.push(decodeEntities(t));
  };
  while (i < n) {
    const lt = text.indexOf('<', i);
    if (lt < 0) {
      pushText(text.slice(i));
      break;
    }
    pushText(text.slice(i, lt));
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      cur.children.push(text.slice(lt + 9, end < 0 ? n : end));
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (text[lt + 1] === '?' || text[lt + 1] === '!') {
      // processing instruction or DOCTYPE (internal subsets with '>' inside are rare in EPUB)
      let end = text.indexOf('>', lt + 2);
      if (text.startsWith('<!DOCTYPE', lt) || text.startsWith('<!doctype', lt)) {
        const bracket = text.indexOf('[', lt);
        if (bracket >= 0 && bracket < end) {
          const close = text.indexOf(']>', bracket);
          if (close >= 0) end = close + 1;
        }
      }
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (text[lt + 1] === '/') {
      const end = text.indexOf('>', lt + 2);
      const rawName = text.slice(lt + 2, end < 0 ? n : end).trim();
      const name = html ? rawName.toLowerCase() : rawName;
      i = end < 0 ? n : end + 1;
      // close the nearest open element with that name; ignore stray end tags
      for (let e: XNode | null = cur; e && e !== root; e = e.parent) {
        if (e.name === name) {
          cur = e.parent ?? root;
          break;
        }
      }
      continue;
    }
    const m = /^<([^\s/>]+)/.exec(text.slice(lt, lt + 256));
    if (!m) {
      pushText('<');
      i = lt + 1;
      continue;
    }
    // find the end of the tag, honouring quotes
    let j = lt + m[0].length;
    let quote = '';
    for (; j < n; j++) {
      const c = text[j];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') break;
    }
    const inner = text.slice(lt + m[0].length, j);
    const selfClosing = inner.endsWith('/');
    const name = html ? m[1]!.toLowerCase() : m[1]!;
    const local = localOf(name);
    const el: XNode = {
      name,
      local,
      attrs: parseAttrs(selfClosing ? inner.slice(0, -1) : inner),
      children: [],
      parent: cur,
    };
    cur.children.push(el);
    i = j + 1;
    if (selfClosing || (html && VOID.has(local))) continue;
    if (RAW.has(local.toLowerCase())) {
      const close = text.toLowerCase().indexOf(`</${name.toLowerCase()}`, i);
      el.children.push(text.slice(i, close < 0 ? n : close));
      const gt = close < 0 ? -1 : text.indexOf('>', close);
      i = gt < 0 ? n : gt + 1;
      continue;
    }
    cur = el;
  }
  return root;
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
  if (name in node.attrs) return node.attrs[name];
  for (const [k, v] of Object.entries(node.attrs)) if (localOf(k) === name) return v;
  return undefined;
}
