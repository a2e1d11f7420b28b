import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { fontOperations } from '@quire/api/operations';
import { notFound } from '../../domain/errors.js';
import { FONT_MEDIA_TYPES, type Fonts } from '../../fonts/fonts.js';
import { contentDisposition } from '../../library/book-files.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

export interface FontRouteDeps {
  fonts: Fonts;
}

/**
 * Fonts of the EPUB reader (api.md §3.12). The families need a caller; the CSS and the font files are public,
 * because the book's frame loads them without credentials.
 */
export function fontHandlers({ fonts }: FontRouteDeps): Handlers<OperationIdsOf<typeof fontOperations>> {
  return {
    getFonts: async () => fonts.families(),
    getFontFamilyAsCss: async (req, reply) => {
      const css = await fonts.css(req.params.fontFamily);
      if (css === null) throw notFound();
      return reply.type('text/css').send(css);
    },
    getFontFile: async (req, reply) => {
      const font = await fonts.file(req.params.fontFamily, req.params.fontFile);
      if (!font) throw notFound();
      const content = await readFile(font.path).catch(() => null);
      if (!content) throw notFound();
      const range = byteRange(req.headers.range, content.length);
      if (range === 'unsatisfiable') {
        return reply.code(416).header('Content-Range', `bytes */${content.length}`).send(Buffer.alloc(0));
      }
      // One ETag for the whole file, partial answers included (the ETag plugin keeps a header set here).
      reply
        .type(FONT_MEDIA_TYPES[font.extension])
        .header('Content-Disposition', contentDisposition('attachment', font.name))
        .header('Accept-Ranges', 'bytes')
        .header('ETag', `"0${createHash('md5').update(content).digest('hex')}"`);
      if (!range) return reply.send(content);
      return reply
        .code(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${content.length}`)
        .send(content.subarray(range.start, range.end + 1));
    },
  };
}

/**
 * One `Range: bytes=…` range (RFC 9110 §14.1.2) of a body of `size` bytes: `start-end`, `start-` or `-suffix`.
 * Null (the whole body) when there is no usable header or it lists several ranges.
 */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}
