import { MAX_READ_LIST_IMPORT_BYTES, type ReadListDto, type ReadListRequestMatchDto } from '@quire/api';
import type { readListOperations, readListPosterOperations } from '@quire/api/operations';
import type { ReadListService, ReadListSortProperty, ReadListView } from '../../collections/index.js';
import type { LibraryFiles } from '../../library/library-files.js';
import { contentDisposition, fileNameOf, streamStoredZip } from '../../library/book-files.js';
import type { Handlers, OperationIdsOf } from '../operations.js';
import { pageRequest, toPage } from '../listing.js';
import { utcDateTime } from '../mappers/users.js';
import { sendSetThumbnail, toReadListPosterDto } from './collections.js';
import { readMultipartFile, readUpload } from './thumbnails.js';

/*
 * Read lists (api.md §3.5): the service checks what the caller may see (books filtered by their restrictions,
 * invisible → 404); the table lets only admins write and FILE_DOWNLOAD users download the ZIP (§1.8). The books of
 * a read list (`/readlists/{id}/books`, next/previous) are in readlist-books.ts.
 *
 * Beyond Komga: `GET /api/v1/readlists/{id}/cbl` exports the list as a ComicRack reading list, the format
 * `POST /api/v1/readlists/match/comicrack` imports.
 */

const SORT_PROPERTIES = new Set<string>(['name', 'createdDate', 'lastModifiedDate']);

/** `sort=prop[,prop…][,asc|desc]`, repeatable; unknown properties are ignored (api.md §1.4). */
function sortOf(values: readonly string[] | undefined) {
  const sort: { property: ReadListSortProperty; descending: boolean }[] = [];
  for (const value of values ?? []) {
    const parts = value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const last = parts.at(-1)?.toLowerCase();
    if (last === 'asc' || last === 'desc') parts.pop();
    for (const p of parts) {
      if (SORT_PROPERTIES.has(p)) sort.push({ property: p as ReadListSortProperty, descending: last === 'desc' });
    }
  }
  return sort;
}

export const toReadListDto = (r: ReadListView): ReadListDto => ({
  id: r.id,
  name: r.name,
  summary: r.summary,
  ordered: r.ordered,
  bookIds: r.bookIds,
  createdDate: utcDateTime(r.createdDate),
  lastModifiedDate: utcDateTime(r.lastModifiedDate),
  filtered: r.filtered,
});

export interface ReadListRouteDeps {
  readLists: ReadListService;
  /** The books' files, for the ZIP. */
  files: LibraryFiles;
}

export function readListHandlers({
  readLists,
  files,
}: ReadListRouteDeps): Handlers<
  OperationIdsOf<typeof readListOperations> | OperationIdsOf<typeof readListPosterOperations>
> {
  return {
    getReadLists: async (req) => {
      const page = pageRequest(req.query);
      const { content, total } = await readLists.list(req.user, {
        search: req.query.search,
        libraryIds: req.query.library_id ?? [],
        sort: sortOf(req.query.sort),
        paging: page.slice ?? undefined,
      });
      return toPage(content.map(toReadListDto), total, page);
    },
    createReadList: async (req) => toReadListDto(await readLists.create(req.user, req.body)),
    getReadListById: async (req) => toReadListDto(await readLists.get(req.user, req.params.id)),
    updateReadListById: async (req, reply) => {
      await readLists.update(req.user, req.params.id, req.body);
      return reply.code(204).send(null);
    },
    deleteReadListById: async (req, reply) => {
      await readLists.delete(req.params.id);
      return reply.code(204).send(null);
    },
    getReadListsByBookId: async (req) => (await readLists.ofBook(req.user, req.params.bookId)).map(toReadListDto),

    // A stored ZIP of the books the caller may see, in reading order: `<n> - <file name>` (api.md §1.8).
    downloadReadListAsZip: async (req, reply) => {
      const { name, books } = await readLists.exportedBooks(req.user, req.params.id);
      const entries = books.map((b, i) => ({ ...b, name: `${i + 1} - ${fileNameOf(b.url)}` }));
      return reply
        .type('application/zip')
        .header('Content-Disposition', contentDisposition('attachment', `${name}.zip`))
        .send(streamStoredZip(files, entries));
    },
    matchComicRackList: async (req): Promise<ReadListRequestMatchDto> => {
      // The multipart reader stops at the limit: a bigger list is a 400 that says the limit, never held whole.
      const { file } = await readMultipartFile(
        req,
        MAX_READ_LIST_IMPORT_BYTES,
        `Maximum upload size exceeded: a read list file must not exceed ${MAX_READ_LIST_IMPORT_BYTES / 1024 / 1024} MB`,
      );
      const { readListMatch, requests } = await readLists.matchComicRackList(file);
      return {
        readListMatch,
        requests: requests.map((r) => ({
          request: r.request,
          matches: r.matches.map((m) => ({
            series: {
              seriesId: m.series.seriesId,
              title: m.series.title,
              ...(m.series.releaseDate ? { releaseDate: m.series.releaseDate } : {}),
            },
            books: m.books,
          })),
        })),
        errorCode: '',
      };
    },
    exportReadListAsCbl: async (req, reply) => {
      const { name, xml } = await readLists.comicRackList(req.user, req.params.id);
      return reply
        .type('application/xml; charset=utf-8')
        .header('Content-Disposition', contentDisposition('attachment', `${name}.cbl`))
        .send(xml);
    },

    getReadListThumbnail: async (req, reply) =>
      sendSetThumbnail(req, reply, await readLists.thumbnail(req.user, req.params.id)),
    getReadListThumbnails: async (req) => (await readLists.posters(req.user, req.params.id)).map(toReadListPosterDto),
    getReadListThumbnailById: async (req, reply) =>
      reply.type('image/jpeg').send(await readLists.posterBytes(req.user, req.params.id, req.params.thumbnailId)),
    addUserUploadedReadListThumbnail: async (req) => {
      const { file, selected } = await readUpload(req, req.query.selected);
      return toReadListPosterDto(await readLists.uploadPoster(req.params.id, file, selected));
    },
    markReadListThumbnailSelected: async (req, reply) => {
      await readLists.selectPoster(req.params.id, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
    deleteUserUploadedReadListThumbnail: async (req, reply) => {
      await readLists.deletePoster(req.params.id, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
  };
}
