import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { injectFontCss, loadServerFontCss } from './fonts';
import { cssFontFamily } from './publication';

const CSS = `@font-face {
  font-family: "Atkinson Hyperlegible";
  src: url('Atkinson-Bold.woff2') format('woff2');
  font-weight: bold;
  font-style: normal;
}

@font-face {
  font-family: "Atkinson Hyperlegible";
  src: url('Atkinson%20Italic.ttf') format('truetype');
  font-weight: normal;
  font-style: italic;
}
`;

describe('server fonts in the book frames', () => {
  const created: Blob[] = [];
  const createObjectURL = URL.createObjectURL;

  beforeEach(() => {
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob);
      return `blob:http://localhost/font-${created.length}`;
    };
  });
  afterEach(() => {
    URL.createObjectURL = createObjectURL;
    created.length = 0;
    vi.unstubAllGlobals();
  });

  function stub(answers: Record<string, () => Response>) {
    const requested: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input));
        requested.push(url.pathname);
        return answers[url.pathname]?.() ?? new Response('{}', { status: 404 });
      }),
    );
    return requested;
  }

  it('fetches the CSS and its files, and points the rules at blob: URLs the frame may load', async () => {
    const requested = stub({
      '/api/v1/fonts/resource/Atkinson%20Hyperlegible/css': () => new Response(CSS),
      '/api/v1/fonts/resource/Atkinson%20Hyperlegible/Atkinson-Bold.woff2': () =>
        new Response('bold', { headers: { 'Content-Type': 'font/woff2' } }),
      '/api/v1/fonts/resource/Atkinson%20Hyperlegible/Atkinson%20Italic.ttf': () =>
        new Response('italic', { headers: { 'Content-Type': 'font/ttf' } }),
    });
    const css = await loadServerFontCss('Atkinson Hyperlegible');
    expect(requested).toHaveLength(3);
    expect(requested[0]).toBe('/api/v1/fonts/resource/Atkinson%20Hyperlegible/css');
    expect(created).toHaveLength(2);
    expect(css).not.toMatch(/url\('Atkinson/);
    expect(css.match(/url\('blob:http:\/\/localhost\/font-\d'\)/g)).toHaveLength(2);
    expect(css).toContain('font-style: italic;');
  });

  it('keeps the faces it could read when one file fails', async () => {
    stub({
      '/api/v1/fonts/resource/Atkinson%20Hyperlegible/css': () => new Response(CSS),
      '/api/v1/fonts/resource/Atkinson%20Hyperlegible/Atkinson-Bold.woff2': () => new Response('bold'),
    });
    const css = await loadServerFontCss('Atkinson Hyperlegible');
    expect(css).toContain("url('blob:http://localhost/font-1')");
    expect(css).toContain("url('Atkinson%20Italic.ttf')");
  });

  it('fails when the family is unknown or none of its files can be read', async () => {
    stub({});
    await expect(loadServerFontCss('Nobody')).rejects.toThrow(/404/);
    stub({ '/api/v1/fonts/resource/Atkinson%20Hyperlegible/css': () => new Response(CSS) });
    await expect(loadServerFontCss('Atkinson Hyperlegible')).rejects.toThrow(/No file/);
  });

  it('puts one family at a time in a frame, and takes it out again', () => {
    const doc = document.implementation.createHTMLDocument('chapter');
    const wnd = { document: doc } as unknown as Window;
    const styles = () => Array.from(doc.head.querySelectorAll('style'));

    injectFontCss(wnd, { family: 'A', css: '@font-face { font-family: "A"; }' });
    injectFontCss(wnd, { family: 'A', css: '@font-face { font-family: "A"; }' });
    expect(styles()).toHaveLength(1);
    expect(styles()[0]?.textContent).toContain('font-family: "A"');

    injectFontCss(wnd, { family: 'B', css: '@font-face { font-family: "B"; }' });
    expect(styles()).toHaveLength(1);
    expect(styles()[0]?.textContent).toContain('font-family: "B"');

    injectFontCss(wnd, null);
    expect(styles()).toHaveLength(0);
  });

  it("quotes server families in Readium's setting, not the generic ones", () => {
    expect(cssFontFamily(null)).toBeNull();
    expect(cssFontFamily('serif')).toBe('serif');
    expect(cssFontFamily('OpenDyslexic')).toBe('"OpenDyslexic"');
    expect(cssFontFamily('3 "Quoted" \\ Family')).toBe('"3 \\"Quoted\\" \\\\ Family"');
  });
});
