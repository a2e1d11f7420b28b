import { readdir, realpath, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';

/**
 * Font families for the EPUB reader (api.md §3.12): OpenDyslexic, shipped with the server, plus one family per
 * folder of `<dataDir>/fonts`, read from disk on each request so that a new folder needs no restart.
 *
 * Family and file names come from URLs. A name is only ever looked up among the entries of a listed folder,
 * never joined blindly, and the real path of every file (symbolic links resolved) must stay inside its family's
 * folder, itself inside the fonts folder.
 */

export const FONT_MEDIA_TYPES = {
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
} as const;

export type FontExtension = keyof typeof FONT_MEDIA_TYPES;

export interface FontFile {
  /** The name clients ask for (the file's own name, or the served name of an embedded file). */
  name: string;
  extension: FontExtension;
  /** Absolute path on disk, symbolic links resolved. */
  path: string;
}

export interface Fonts {
  /** OpenDyslexic first, then the families of the fonts folder that hold at least one font file. */
  families(): Promise<string[]>;
  /** The files of a family sorted by name; null for an unknown family. */
  files(family: string): Promise<FontFile[] | null>;
  /** One file of a family; null when the family or the file is unknown. */
  file(family: string, name: string): Promise<FontFile | null>;
  /** The `@font-face` rules of a family, one per file; null for an unknown family. */
  css(family: string): Promise<string | null>;
}

export const EMBEDDED_FAMILY = 'OpenDyslexic';

/**
 * The OpenDyslexic faces of the @fontsource/opendyslexic package, served under names that say their weight and
 * style in words, the way the CSS guesses them. WOFF2 only: every browser the web client supports reads it.
 */
const EMBEDDED_FILES: Record<string, string> = {
  'OpenDyslexic-Regular.woff2': 'opendyslexic-latin-400-normal.woff2',
  'OpenDyslexic-Italic.woff2': 'opendyslexic-latin-400-italic.woff2',
  'OpenDyslexic-Bold.woff2': 'opendyslexic-latin-700-normal.woff2',
  'OpenDyslexic-BoldItalic.woff2': 'opendyslexic-latin-700-italic.woff2',
};

/** The folder holding the package's font files. */
function embeddedFolder(): string {
  const manifest = createRequire(import.meta.url).resolve('@fontsource/opendyslexic/package.json');
  return join(dirname(manifest), 'files');
}

export function createFonts(options: { dir: string }): Fonts {
  const embeddedDir = embeddedFolder();
  const embedded: FontFile[] = Object.entries(EMBEDDED_FILES)
    .map(([name, file]) => ({ name, extension: 'woff2' as const, path: join(embeddedDir, file) }))
    .sort(byName);

  /** The fonts folder's real path, or null when there is none. */
  const root = async () => {
    try {
      const real = await realpath(options.dir);
      return (await stat(real)).isDirectory() ? real : null;
    } catch {
      return null;
    }
  };

  /** The real path of a family folder, an entry of the fonts folder `base`, or null. */
  const familyFolder = async (base: string, family: string): Promise<string | null> => {
    const real = await realpath(join(base, family)).catch(() => null);
    if (!real || !real.startsWith(base + sep)) return null;
    const s = await stat(real).catch(() => null);
    return s?.isDirectory() ? real : null;
  };

  /** The font files of a family folder; symbolic links pointing out of the folder are left out. */
  const folderFiles = async (folder: string): Promise<FontFile[]> => {
    const names = await readdir(folder).catch(() => [] as string[]);
    const files: FontFile[] = [];
    for (const name of names) {
      const extension = fontExtension(name);
      if (!extension || !isPlainName(name)) continue;
      const real = await realpath(join(folder, name)).catch(() => null);
      if (!real || !real.startsWith(folder + sep)) continue;
      const s = await stat(real).catch(() => null);
      if (s?.isFile()) files.push({ name, extension, path: real });
    }
    return files.sort(byName);
  };

  const userFiles = async (base: string, family: string): Promise<FontFile[]> => {
    const folder = await familyFolder(base, family);
    return folder ? folderFiles(folder) : [];
  };

  const files = async (family: string): Promise<FontFile[] | null> => {
    const base = isPlainName(family) ? await root() : null;
    // Only an exact entry of the folder (a case-insensitive file system would find others).
    if (base && (await readdir(base).catch(() => [] as string[])).includes(family)) {
      const found = await userFiles(base, family);
      if (found.length > 0) return found;
    }
    // A folder named like the embedded family replaces it, unless it holds no font.
    return family === EMBEDDED_FAMILY ? embedded : null;
  };

  return {
    async families() {
      const base = await root();
      const found: string[] = [];
      for (const name of base ? await readdir(base).catch(() => [] as string[]) : []) {
        if (name === EMBEDDED_FAMILY || !isPlainName(name)) continue;
        if (base && (await userFiles(base, name)).length > 0) found.push(name);
      }
      return [EMBEDDED_FAMILY, ...found.sort(byLowerName)];
    },
    files,
    async file(family, name) {
      return (await files(family))?.find((f) => f.name === name) ?? null;
    },
    async css(family) {
      const list = await files(family);
      return list ? fontFaceCss(family, list) : null;
    },
  };
}

/** The `@font-face` rules of a family: `url()`s are relative to the CSS, which sits beside the files. */
export function fontFaceCss(family: string, files: readonly Pick<FontFile, 'name' | 'extension'>[]): string {
  return files
    .map((f) => {
      const lower = f.name.toLowerCase();
      return [
        '@font-face {',
        `  font-family: "${cssString(family)}";`,
        `  src: url('${cssUrl(f.name)}') format('${CSS_FORMATS[f.extension]}');`,
        `  font-weight: ${lower.includes('bold') ? 'bold' : 'normal'};`,
        `  font-style: ${lower.includes('italic') ? 'italic' : 'normal'};`,
        '}',
        '',
      ].join('\n');
    })
    .join('\n');
}

const CSS_FORMATS: Record<FontExtension, string> = {
  woff: 'woff',
  woff2: 'woff2',
  ttf: 'truetype',
  otf: 'opentype',
};

export function fontExtension(name: string): FontExtension | null {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  const ext = name.slice(dot + 1).toLowerCase();
  return Object.hasOwn(FONT_MEDIA_TYPES, ext) ? (ext as FontExtension) : null;
}

/** A single path segment that is neither hidden nor a way up. */
function isPlainName(name: string): boolean {
  return name.length > 0 && !name.startsWith('.') && !/[/\\\0]/.test(name);
}

const cssString = (s: string) => s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\n\r\f]/g, ' ');
/** Percent-encoded, quotes included, so that any file name is one relative URL inside `url('…')`. */
const cssUrl = (name: string) =>
  encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const byLowerName = (a: string, b: string) => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
};
