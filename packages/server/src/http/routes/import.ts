import type { TransientBookDto } from '@quire/api';
import type { importOperations } from '@quire/api/operations';
import type { TransientBook } from '../../domain/transient-books.js';
import type { TransientBooks } from '../../library/transient-books.js';
import type { BookImporter } from '../../library/book-importer.js';
import { humanSize, toBookPageDto } from '../mappers/books.js';
import { sendContent, untilClientLeaves } from './book-content.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

/** Komga's TransientBookDto (api.md §4.1): `url` is the path, `fileLastModified` a local date-time (no zone). */
function toTransientBookDto(b: TransientBook): TransientBookDto {
  const a = b.analysis;
  return {
    id: b.id,
    name: b.name,
    url: b.path,
    fileLastModified: new Date(b.fileLastModified).toISOString().replace(/Z$/, ''),
    sizeBytes: b.fileSize,
    size: humanSize(b.fileSize),
    status: a?.status ?? 'UNKNOWN',
    mediaType: a?.mediaType ?? '',
    pages: (a?.pages ?? []).map((p, i) => toBookPageDto({ ...p, number: i + 1 })),
    files: (a?.files ?? []).map((f) => f.fileName),
    comment: a?.comment ?? '',
    ...(b.number !== null ? { number: b.number } : {}),
    ...(b.seriesId !== null ? { seriesId: b.seriesId } : {}),
  };
}

/** The import screen's transient books and the import itself (api.md §3.11). */
export function importHandlers(d: {
  transientBooks: TransientBooks;
  importer: Pick<BookImporter, 'queueImports'>;
}): Handlers<OperationIdsOf<typeof importOperations>> {
  return {
    scanTransientBooks: async (req) => (await d.transientBooks.scan(req.body.path)).map(toTransientBookDto),
    analyzeTransientBook: async (req) => toTransientBookDto(await d.transientBooks.analyze(req.params.id)),
    getPageByTransientBookId: async (req, reply) => {
      const { id, pageNumber } = req.params;
      const content = await d.transientBooks.page(id, pageNumber, untilClientLeaves(reply));
      // The reference names no file here (its book pages do): the page is only shown beside the book it may replace.
      return sendContent(reply, content, null);
    },
    // One ImportBook task per book; each reports its outcome as a BookImported event (api.md §6).
    importBooks: async (req, reply) => {
      await d.importer.queueImports(req.body.books, req.body.copyMode);
      return reply.code(202).send(null);
    },
  };
}
