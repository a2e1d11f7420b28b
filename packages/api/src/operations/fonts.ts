import { Type } from 'typebox';
import { binary, defineOperation } from './operation.js';

/**
 * Fonts of the EPUB reader (api.md §3.12). The families need a caller; the CSS and the font files are public,
 * because the book's frame loads them without credentials.
 */
const tags = ['Fonts'] as const;
const FontFamilyParams = Type.Object({ fontFamily: Type.String() });
const FontFileParams = Type.Object({ fontFamily: Type.String(), fontFile: Type.String() });
/** Komga documents font files as a binary string; the server sends the bytes as they are. */
const font = Type.Unsafe<Uint8Array>({
  type: 'string',
  format: 'binary',
  description: 'the font file, or a range of it',
});

export const fontOperations = {
  getFonts: defineOperation({
    operationId: 'getFonts',
    method: 'GET',
    path: '/api/v1/fonts/families',
    tags,
    summary: 'List font families',
    access: 'user',
    responses: { 200: Type.Array(Type.String()) },
  }),
  getFontFamilyAsCss: defineOperation({
    operationId: 'getFontFamilyAsCss',
    method: 'GET',
    path: '/api/v1/fonts/resource/{fontFamily}/css',
    tags,
    summary: 'Download CSS file',
    access: 'public',
    params: FontFamilyParams,
    responses: { 200: Type.String() },
    produces: ['text/css'],
  }),
  getFontFile: defineOperation({
    operationId: 'getFontFile',
    method: 'GET',
    path: '/api/v1/fonts/resource/{fontFamily}/{fontFile}',
    tags,
    summary: 'Download font file',
    access: 'public',
    params: FontFileParams,
    responses: { 200: font, 206: font, 416: binary('no such range') },
    produces: ['application/octet-stream'],
  }),
};
