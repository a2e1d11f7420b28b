import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { registerAlias } from '../../operations.js';
import {
  authDocument,
  MEDIATYPE_OPDS_AUTHENTICATION_JSON,
  MEDIATYPE_OPDS_JSON,
  OPDS2_PATH,
  withOpdsLinks,
} from '../../mappers/opds2.js';
import { exportMediaType } from '../../mappers/books.js';
import { baseUrl } from '../book-content.js';
import { bookHandlers, webPubManifests } from '../books.js';
import { readProgressHandlers } from '../read-progress.js';
import { thumbnailHandlers } from '../thumbnails.js';
import { registerOpds2Feeds } from './feeds.js';

/**
 * OPDS 2 (api.md §7.2) under `{ctx}/opds/v2/`: the feeds (feeds.ts), the public authentication document, and the
 * book endpoints Komga serves under both `/api/v1` and `/opds/v2`: the same handlers, registered again at the OPDS
 * paths with the same access rules (PAGE_STREAMING for pages, FILE_DOWNLOAD for the file). The manifests are the
 * REST API's, pointed at `/opds/v2` and finished for OPDS clients (mappers/opds2.ts `withOpdsLinks`). A request
 * without credentials is answered with the authentication document (plugins/auth.ts).
 */
export const opds2Routes: FastifyPluginAsync<{ deps: AppDeps; contextPath: string }> = async (app, opts) => {
  const { deps, contextPath } = opts;

  app.get('/opds/v2/auth', async (req, reply) =>
    reply.type(MEDIATYPE_OPDS_AUTHENTICATION_JSON).send(authDocument(baseUrl(req, contextPath))),
  );

  await app.register(async (feeds) => {
    // Feeds are JSON of their own media type (an error still answers Spring's JSON body: plugins/errors.ts).
    feeds.addHook('preHandler', async (_req, reply) => {
      reply.type(MEDIATYPE_OPDS_JSON);
    });
    registerOpds2Feeds(feeds, {
      libraries: deps.libraries.repository,
      browse: deps.browse,
      books: deps.books,
      collections: deps.collections,
      referential: deps.referential,
      contextPath,
    });
  });

  const books = bookHandlers({
    books: deps.books,
    analyzer: deps.books.analyzer,
    browse: deps.browse,
    files: deps.libraries.files,
    contextPath,
  });
  const manifests = webPubManifests(
    { books: deps.books, contextPath },
    { apiPath: OPDS2_PATH, finish: (manifest, book, server) => withOpdsLinks(manifest, book, server) },
  );
  const progress = readProgressHandlers({ reading: deps.reading });
  const thumbnails = thumbnailHandlers({ thumbnails: deps.thumbnails });
  const byId = `${OPDS2_PATH}/books/{bookId}`;

  registerAlias(app, 'getBookWebPubManifest', `${byId}/manifest`, manifests.getBookWebPubManifest);
  registerAlias(app, 'getBookWebPubManifestEpub', `${byId}/manifest/epub`, manifests.getBookWebPubManifestEpub);
  registerAlias(app, 'getBookWebPubManifestPdf', `${byId}/manifest/pdf`, manifests.getBookWebPubManifestPdf);
  registerAlias(app, 'getBookWebPubManifestDivina', `${byId}/manifest/divina`, manifests.getBookWebPubManifestDivina);
  registerAlias(app, 'getBookPageByNumber', `${byId}/pages/{pageNumber}`, books.getBookPageByNumber);
  registerAlias(app, 'getBookPageRawByNumber', `${byId}/pages/{pageNumber}/raw`, books.getBookPageRawByNumber);
  registerAlias(app, 'getBookEpubResource', `${byId}/resource/{resource}`, books.getBookEpubResource);
  registerAlias(app, 'getBookProgression', `${byId}/progression`, progress.getBookProgression);
  registerAlias(app, 'updateBookProgression', `${byId}/progression`, progress.updateBookProgression);
  // An acquisition link declares the export media type (application/vnd.comicbook+zip for a CBZ: api.md §4.7), and
  // apps choose how to open the download by it: the file answers with that type, where the REST API answers the
  // analysed one (application/zip).
  const fileRoutes = new Set([`${OPDS2_PATH}/books/:bookId/file`, `${OPDS2_PATH}/books/:bookId/file/*`]);
  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode === 200 && fileRoutes.has(req.routeOptions.url ?? '')) {
      reply.type(exportMediaType(String(reply.getHeader('content-type'))));
    }
    return payload;
  });
  registerAlias(app, 'downloadBookFile', `${byId}/file`, books.downloadBookFile);
  registerAlias(app, 'downloadBookFile_1', `${byId}/file/*`, books.downloadBookFile_1);
  registerAlias(app, 'getBookThumbnail', `${byId}/thumbnail`, thumbnails.getBookThumbnail);
};
