/**
 * A small EPUB written by an attacker, for the HTTP and browser tests of publication isolation (issue 11):
 * every way a book can try to run a script tries to create an administrator through the API with the
 * reader's own session (`POST /api/v2/users`), each with its own e-mail so that a test can tell which one ran:
 * - `inline`: a `<script>` in the chapter, calling `top.fetch` (the app's window) and its own `fetch`;
 * - `handler`: an `onerror` attribute on an image that cannot load;
 * - `external`: `<script src="evil.js">`, a file of the book (same origin as the app);
 * - `srcdoc`: an `<iframe srcdoc>` whose document loads `evil.js` and carries an inline script;
 * - `link`: a `javascript:` link, which the test may click;
 * - `svg`: an SVG file of the book with a `<script>`, shown in the chapter and opened on its own.
 * The chapters also hold plain text (and a stylesheet, an image and a font file), so that a reader can show
 * them and turn pages.
 */
import { zipBuffer } from './library-builder.js';

export const HOSTILE_PASSWORD = 'pwned-secret-1';
/** The e-mail each attack would create. */
export const hostileEmail = (attack: string) => `pwned-${attack}@evil.example`;
/** Text of the first chapter, to find on screen. */
export const HOSTILE_CHAPTER_TEXT = 'The harbour lay quiet under the grey morning.';

/** A script body that tries to create an ADMIN through every window it can reach. */
function attack(name: string): string {
  const body = JSON.stringify({ email: hostileEmail(name), password: HOSTILE_PASSWORD, roles: ['ADMIN'] });
  return `(function () {
  var init = { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: '${body}' };
  try { top.fetch('/api/v2/users', init); } catch (e) {}
  try { parent.fetch('/api/v2/users', init); } catch (e) {}
  try { fetch('/api/v2/users', init); } catch (e) {}
})();`;
}

const PARAGRAPH =
  'The whalers waited for the ice to open, counting the days and mending their lines, while the ' +
  'cold wind sang in the rigging and the cook kept the stove burning through the long nights. ';

const chapter = (title: string, first: string, extra: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en">
<head>
  <title>${title}</title>
  <link rel="stylesheet" type="text/css" href="style.css"/>
  ${extra}
</head>
<body>
  <h1>${title}</h1>
  <p class="first">${first}</p>
  ${Array.from({ length: 40 }, (_, i) => `<p>${i + 1}. ${PARAGRAPH.repeat(3)}</p>`).join('\n  ')}
</body>
</html>
`;

const CHAPTER_1 = chapter(
  'Chapter One',
  HOSTILE_CHAPTER_TEXT,
  `<script type="text/javascript">
//<![CDATA[
${attack('inline')}
//]]>
</script>
  <script type="text/javascript" src="evil.js"></script>`,
).replace(
  '<h1>Chapter One</h1>',
  `<h1>Chapter One</h1>
  <img src="missing.png" alt="" onerror="${attack('handler').replace(/'/g, '&#39;').replace(/"/g, '&quot;')}"/>
  <p><a id="evil-link" href="javascript:${encodeURIComponent(attack('link'))}">A link</a></p>
  <iframe title="srcdoc" srcdoc="${`<script src='evil.js'></script><script>${attack('srcdoc')}</script>`
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')}"></iframe>
  <p><img src="images/evil.svg" alt="an SVG"/></p>
  <object data="images/evil.svg" type="image/svg+xml">an object</object>`,
);

const CHAPTER_2 = chapter('Chapter Two', 'The second chapter begins with the thaw.', '');

export const HOSTILE_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">
  <rect width="120" height="40" fill="#c33"/>
  <script type="text/javascript"><![CDATA[
${attack('svg')}
  ]]></script>
</svg>
`;

/** Bytes standing for a font file: what matters is that it is served, publicly, as a font. */
export const HOSTILE_FONT = Buffer.from('wOFF-not-really-a-font');

const OPF = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:5d1c7a3e-0000-4000-8000-000000000011</dc:identifier>
    <dc:title>The Hostile Harbour</dc:title>
    <dc:language>en</dc:language>
    <meta property="dcterms:modified">2024-01-01T00:00:00Z</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="c1" href="chapter1.xhtml" media-type="application/xhtml+xml" properties="scripted"/>
    <item id="c2" href="chapter2.xhtml" media-type="application/xhtml+xml"/>
    <item id="css" href="style.css" media-type="text/css"/>
    <item id="js" href="evil.js" media-type="application/javascript"/>
    <item id="svg" href="images/evil.svg" media-type="image/svg+xml"/>
    <item id="font" href="fonts/serif.woff" media-type="application/font-woff"/>
  </manifest>
  <spine>
    <itemref idref="c1"/>
    <itemref idref="c2"/>
  </spine>
</package>
`;

const NAV = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>Contents</title></head>
<body>
  <nav epub:type="toc"><ol>
    <li><a href="chapter1.xhtml">Chapter One</a></li>
    <li><a href="chapter2.xhtml">Chapter Two</a></li>
  </ol></nav>
</body>
</html>
`;

const CONTAINER = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
`;

/** The EPUB's files by path, for tests that want one of them. */
export const HOSTILE_FILES: Record<string, string | Buffer> = {
  mimetype: 'application/epub+zip',
  'META-INF/container.xml': CONTAINER,
  'OEBPS/content.opf': OPF,
  'OEBPS/nav.xhtml': NAV,
  'OEBPS/chapter1.xhtml': CHAPTER_1,
  'OEBPS/chapter2.xhtml': CHAPTER_2,
  'OEBPS/style.css': 'body { font-family: serif; } p.first { font-weight: bold; }\n',
  'OEBPS/evil.js': `${attack('external')}\n`,
  'OEBPS/images/evil.svg': HOSTILE_SVG,
  'OEBPS/fonts/serif.woff': HOSTILE_FONT,
};

/** The EPUB (a few KB). */
export function hostileEpub(): Buffer {
  return zipBuffer(
    Object.entries(HOSTILE_FILES).map(([name, data]) => ({
      name,
      data: typeof data === 'string' ? Buffer.from(data, 'utf8') : data,
      deflate: name !== 'mimetype',
    })),
  );
}
