import { fileURLToPath } from 'node:url';
import type { PageHashKnownDto, PageHashMatchDto, PageHashUnknownDto } from '@quire/api';
import type { pageHashOperations } from '@quire/api/operations';
import { NEW_DUPLICATES_PAGE_SIZE } from '@quire/api/constants';
import { parseSort } from '../../db/queries/sort.js';
import { invalid } from '../../domain/errors.js';
import type { KnownPageHash, PageHashMatch } from '../../domain/page-hashes.js';
import type { DuplicatePages } from '../../library/duplicate-pages.js';
import { pageRequest, toPage } from '../listing.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

/** Page-hash dates are local date-times without a zone (api.md §1.3): ours are UTC. */
const localDateTime = (iso: string) => iso.replace(/Z$/, '');

const toKnownDto = (k: KnownPageHash): PageHashKnownDto => ({
  hash: k.hash,
  ...(k.size === null ? {} : { size: k.size }),
  action: k.action,
  deleteCount: k.deleteCount,
  matchCount: k.matchCount,
  created: localDateTime(k.createdDate),
  lastModified: localDateTime(k.lastModifiedDate),
});

const toMatchDto = (m: PageHashMatch): PageHashMatchDto => ({
  bookId: m.bookId,
  url: fileURLToPath(m.url),
  pageNumber: m.number + 1,
  fileName: m.fileName,
  fileSize: m.fileSize ?? 0,
  mediaType: m.mediaType,
});

/** Duplicate pages (api.md §3.10): every operation is for administrators (the table's `access`). */
export function pageHashHandlers({
  duplicatePages,
}: {
  duplicatePages: DuplicatePages;
}): Handlers<OperationIdsOf<typeof pageHashOperations>> {
  return {
    getKnownPageHashes: async (req) => {
      const page = pageRequest(req.query);
      const found = await duplicatePages.listKnown(req.query.action ?? [], parseSort(req.query.sort), page.slice);
      return toPage(found.items.map(toKnownDto), found.total, page);
    },
    // spec.md §9: the new-duplicates list is paged by 10 unless asked otherwise.
    getUnknownPageHashes: async (req) => {
      const page = pageRequest({ ...req.query, size: req.query.size ?? NEW_DUPLICATES_PAGE_SIZE });
      const found = await duplicatePages.listUnknown(parseSort(req.query.sort), page.slice);
      return toPage(
        found.items.map((u): PageHashUnknownDto => ({
          hash: u.hash,
          ...(u.size === null ? {} : { size: u.size }),
          matchCount: u.matchCount,
        })),
        found.total,
        page,
      );
    },
    getPageHashMatches: async (req) => {
      const page = pageRequest(req.query);
      const found = await duplicatePages.listMatches(req.params.pageHash, parseSort(req.query.sort), page.slice);
      return toPage(found.items.map(toMatchDto), found.total, page);
    },
    createOrUpdateKnownPageHash: async (req, reply) => {
      const hash = req.body.hash.trim();
      if (!hash) throw invalid([{ fieldName: 'hash', message: 'must not be blank' }]);
      await duplicatePages.decide(hash, req.body.size ?? null, req.body.action);
      return reply.code(202).send(null);
    },
    getKnownPageHashThumbnail: async (req, reply) =>
      reply.type('image/jpeg').send(Buffer.from(await duplicatePages.knownThumbnail(req.params.pageHash))),
    getUnknownPageHashThumbnail: async (req, reply) => {
      const image = await duplicatePages.unknownThumbnail(req.params.pageHash, req.query.resize);
      return reply.type(image.mediaType).send(image.bytes);
    },
    deleteDuplicatePagesByPageHash: async (req, reply) => {
      await duplicatePages.deleteAll(req.params.pageHash);
      return reply.code(202).send(null);
    },
    deleteSingleMatchByPageHash: async (req, reply) => {
      await duplicatePages.deleteMatch(req.params.pageHash, req.body);
      return reply.code(202).send(null);
    },
  };
}
