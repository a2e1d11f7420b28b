import { fontCssUrl } from '../../../api/reader';
import { GENERIC_FONTS } from './publication';

/**
 * Server font families inside the book's frames. Readium gives each frame a Content-Security-Policy that only
 * lets it load the book's own resources and blob: URLs, so a `<link>` to `/api/v1/fonts/resource/{family}/css`
 * would be refused. Instead the family's CSS and its font files are fetched here, each file becomes a blob: URL,
 * and the rewritten CSS goes into every frame as a `<style>` (inline styles are allowed there).
 */

export const isGenericFont = (family: string) => (GENERIC_FONTS as readonly string[]).includes(family);

/** `url(…)` of a CSS text: the quote, then the address. */
const CSS_URL = /url\(\s*(['"]?)([^'")]+)\1\s*\)/g;

/**
 * The family's `@font-face` rules with every font file as a blob: URL. A face whose file cannot be fetched keeps
 * its address (the browser then stands in with the other faces); the family fails only when its CSS or every one
 * of its files does.
 */
export async function loadServerFontCss(family: string): Promise<string> {
  const cssUrl = new URL(fontCssUrl(family), window.location.href);
  const res = await fetch(cssUrl, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`The CSS of the font family ${family} answered ${res.status}`);
  const css = await res.text();
  const addresses = [...new Set(Array.from(css.matchAll(CSS_URL), (m) => m[2]!))];
  const blobs = new Map<string, string>();
  await Promise.all(
    addresses.map(async (address) => {
      try {
        const file = await fetch(new URL(address, cssUrl), { credentials: 'same-origin' });
        if (file.ok) blobs.set(address, URL.createObjectURL(await file.blob()));
      } catch {
        // Left out: see above.
      }
    }),
  );
  if (addresses.length > 0 && blobs.size === 0) throw new Error(`No file of the font family ${family} could be read`);
  return css.replace(CSS_URL, (whole, _quote: string, address: string) => {
    const blob = blobs.get(address);
    return blob ? `url('${blob}')` : whole;
  });
}

const STYLE_ID = 'quire-server-font';

/** Puts the family's CSS in a frame's document, replacing the family it had; null removes it. */
export function injectFontCss(wnd: Window, font: { family: string; css: string } | null): void {
  const doc = wnd.document as Document | undefined;
  if (!doc?.head) return;
  const existing = doc.getElementById(STYLE_ID);
  if (!font) {
    existing?.remove();
    return;
  }
  if (existing?.getAttribute('data-family') === font.family) return;
  const style = existing ?? doc.createElement('style');
  style.id = STYLE_ID;
  style.setAttribute('data-family', font.family);
  style.textContent = font.css;
  if (!existing) doc.head.appendChild(style);
}
