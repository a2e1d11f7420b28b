import { Type, type Static } from 'typebox';
import { BookPageDto } from './books.js';
import { COPY_MODES } from './constants.js';

/** Import of books from outside the libraries (api.md §3.11, §4.1). Names and shapes are Komga's. */

/** `POST /api/v1/transient-books`: the folder to walk. */
export const ScanRequestDto = Type.Object({ path: Type.String() });
export type ScanRequestDto = Static<typeof ScanRequestDto>;

/**
 * A book found outside every library. `url` is the file's path; `fileLastModified` a local date-time (no zone);
 * `number` and `seriesId` are the guesses of the analysis, absent before it.
 */
export const TransientBookDto = Type.Object({
  id: Type.String(),
  name: Type.String(),
  url: Type.String(),
  fileLastModified: Type.String(),
  sizeBytes: Type.Integer(),
  size: Type.String(),
  status: Type.String(),
  mediaType: Type.String(),
  pages: Type.Array(BookPageDto),
  files: Type.Array(Type.String()),
  comment: Type.String(),
  number: Type.Optional(Type.Number()),
  seriesId: Type.Optional(Type.String()),
});
export type TransientBookDto = Static<typeof TransientBookDto>;

/** One book of an import: the file to bring in, its series, and the book it replaces (an upgrade). */
export const BookImportDto = Type.Object({
  sourceFile: Type.String(),
  seriesId: Type.String(),
  upgradeBookId: Type.Optional(Type.String()),
  /** The new file name without its extension; only its final path component is used. */
  destinationName: Type.Optional(Type.String()),
});
export type BookImportDto = Static<typeof BookImportDto>;

/** `POST /api/v1/books/import`: one ImportBook task per book, all with the same copy mode. */
export const BookImportBatchDto = Type.Object({
  books: Type.Array(BookImportDto),
  copyMode: Type.Enum([...COPY_MODES]),
});
export type BookImportBatchDto = Static<typeof BookImportBatchDto>;
