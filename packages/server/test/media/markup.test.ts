import { describe, expect, it } from 'vitest';
import { MediaLimitError } from '../../src/media/limits.js';
import {
  MAX_DEPTH,
  attr,
  descendants,
  elementEnds,
  elements,
  firstDescendant,
  normalizedText,
  parseMarkup,
  textContent,
  type XNode,
} from '../../src/media/markup.js';

const only = (root: XNode) => elements(root)[0]!;
const depthOf = (node: XNode): number => {
  let depth = 0; // elements, the node included
  for (let n: XNode | null = node; n?.parent; n = n.parent) depth++;
  return depth;
};

describe('markup of book files', () => {
  it('decodes every HTML named entity in XML, not just a few, and leaves unknown ones as written', () => {
    const doc = parseMarkup(
      '<t a="&frac12; &amp; x">caf&eacute; &hearts; &Omega; &check; &rarr; &amp;amp; &#x1F600;&#233; &bogus; AT&T</t>',
    );
    expect(textContent(doc)).toBe('café ♥ Ω ✓ → &amp; 😀é &bogus; AT&T');
    expect(attr(only(doc), 'a')).toBe('½ & x');
  });

  it('keeps CDATA as text, undecoded, in XML and in XHTML', () => {
    for (const html of [false, true]) {
      const doc = parseMarkup('<t><![CDATA[<b>&amp;</b>]]> &amp; more</t>', { html });
      expect(textContent(doc)).toBe('<b>&amp;</b> & more');
    }
  });

  it('reads prefixed names and attributes without their namespace being declared', () => {
    const opf = parseMarkup(
      '<opf:package><opf:metadata><dc:title>T</dc:title><opf:meta name="cover" content="c"/></opf:metadata></opf:package>',
    );
    expect(firstDescendant(opf, 'title')?.name).toBe('dc:title');
    expect(attr(firstDescendant(opf, 'meta')!, 'content')).toBe('c');
    const nav = parseMarkup('<nav epub:type="toc"><ol><li><a href="a.xhtml">A</a></li></ol></nav>', { html: true });
    expect(attr(firstDescendant(nav, 'nav')!, 'type')).toBe('toc');
    expect(nav.children).toHaveLength(1);
  });

  it('skips a byte order mark, the XML declaration and a DOCTYPE', () => {
    const doc = parseMarkup(
      '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd">\n<ncx><docTitle><text>Title</text></docTitle></ncx>',
    );
    expect(doc.children).toHaveLength(1);
    expect(only(doc).name).toBe('ncx');
    expect(normalizedText(doc)).toBe('Title');
  });

  it('never fails on broken markup: stray end tags are ignored, open elements close at the end', () => {
    const doc = parseMarkup('<a><b>x</c></b>y</a>z</q><d><e>open');
    expect(elements(doc).map((e) => e.name)).toEqual(['a', 'd']);
    expect(textContent(firstDescendant(doc, 'a')!)).toBe('xy');
    expect(textContent(firstDescendant(doc, 'e')!)).toBe('open');
    const page = parseMarkup('<P CLASS=q>one<br>two<img src=a.png><p>three</div>', { html: true });
    expect(descendants(page, 'p')).toHaveLength(2);
    expect(attr(firstDescendant(page, 'img')!, 'src')).toBe('a.png');
    expect(normalizedText(page)).toBe('onetwothree');
  });

  it('reads script and style as raw text, and leaves them out of the text', () => {
    const doc = parseMarkup('<p>a<script>if (x</b) y = "&amp;"</script><style>p{}</style>b</p>', { html: true });
    expect(firstDescendant(doc, 'script')!.children).toEqual(['if (x</b) y = "&amp;"']);
    expect(normalizedText(doc)).toBe('ab');
  });
});

describe('where elements end (KEPUB spans)', () => {
  const kobo = (name: string, attrs: Readonly<Record<string, string>>) => name === 'span' && attrs.class === 'koboSpan';
  it('gives the offset past each end tag, or where whatever closed the element begins', () => {
    const html = '<p><span class="koboSpan" id="a">x<span>y</span>z</span><span class="koboSpan" id="b">w</p>tail';
    expect(elementEnds(html, kobo)).toEqual([
      { attrs: { class: 'koboSpan', id: 'a' }, end: html.indexOf('<span class="koboSpan" id="b">') },
      { attrs: { class: 'koboSpan', id: 'b' }, end: html.indexOf('</p>') },
    ]);
    const unclosed = '<span class="koboSpan" id="c">never closed';
    expect(elementEnds(unclosed, kobo)).toEqual([{ attrs: { class: 'koboSpan', id: 'c' }, end: unclosed.length }]);
  });

  it(`refuses markup nested more than ${MAX_DEPTH} elements deep`, () => {
    expect(() => elementEnds('<div>'.repeat(3_000_000), kobo)).toThrow(MediaLimitError);
    expect(elementEnds(`${'<div>'.repeat(MAX_DEPTH - 1)}<span class="koboSpan">`, kobo)).toHaveLength(1);
  });
});

describe('markup from hostile files', () => {
  it('expands no entity a DOCTYPE declares (billion laughs)', () => {
    const laughs = [
      '<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`),
    ].join('');
    const started = performance.now();
    const doc = parseMarkup(`<?xml version="1.0"?><!DOCTYPE lolz [${laughs}]><lolz>&lol9;</lolz>`);
    expect(performance.now() - started).toBeLessThan(100);
    expect(textContent(doc)).toBe('&lol9;');
  });

  it('reads no external entity', () => {
    const doc = parseMarkup(
      '<!DOCTYPE t [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY web SYSTEM "http://127.0.0.1:1/x">]><t a="&xxe;">&xxe;&web;</t>',
    );
    expect(textContent(doc)).toBe('&xxe;&web;');
    expect(attr(only(doc), 'a')).toBe('&xxe;');
  });

  it(`refuses markup nested more than ${MAX_DEPTH} elements deep, quickly (ERR_1008)`, () => {
    const nested = (n: number) => `<r>${'<div>'.repeat(n - 2)}<x/>${'</div>'.repeat(n - 2)}</r>`;
    for (const html of [false, true]) {
      const x = firstDescendant(parseMarkup(nested(MAX_DEPTH), { html }), 'x')!;
      expect(depthOf(x)).toBe(MAX_DEPTH);
      const started = performance.now();
      // 15 MB of open tags, as deep as the markup limit lets a file nest
      expect(() => parseMarkup('<div>'.repeat(3_000_000), { html })).toThrow(
        new MediaLimitError(`markup nested more than ${MAX_DEPTH} elements deep`),
      );
      expect(() => parseMarkup(nested(MAX_DEPTH + 1), { html })).toThrow(MediaLimitError);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });
});
