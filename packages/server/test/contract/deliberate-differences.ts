/**
 * Where Quire's OpenAPI document deliberately differs from Komga's (komga-openapi.json), operation by operation,
 * each with its reason. The contract test fails on any difference not listed here, and on a listed one that no
 * longer exists, so this list stays short and true.
 */
const CLAIM_HEADER =
  'Optional in the schema: the claim service checks both headers itself, so a missing one gets the same ' +
  'violation (claimServer.email / claimServer.password) as an invalid one';
const CURRENT_PASSWORD =
  'Quire addition: changing your own password (by either path) needs the current one, unless the request ' +
  'authenticated with it (HTTP Basic); an admin changing another user does not send it';

/** The deprecated `/api/v1` referential lists: Komga takes one id in these filters, Quire a list. */
const idList = (...names: string[]) =>
  Object.fromEntries(
    names.map((name) => [
      `parameter query ${name}: type "array" ≠ "string"`,
      'Quire reads every id filter as a list (repeated, comma-separated or `[]`), as on /api/v2; one id filters as in Komga',
    ]),
  );

/** Poster uploads: the multipart form's `file` part is required by both servers; @fastify/swagger says so. */
const uploadBody = {
  'body: required true': 'Komga answers 400 without the `file` part too; its document just leaves the form optional',
};

export const DELIBERATE_DIFFERENCES: Record<string, Record<string, string>> = {
  claimServer: {
    'parameter header x-komga-email: required false': CLAIM_HEADER,
    'parameter header x-komga-password: required false': CLAIM_HEADER,
  },
  getCurrentUser: {
    'parameter query remember-me: type "string" ≠ "boolean"':
      'Read by the authentication hook before validation, as Spring converts a boolean (true/on/yes/1); any ' +
      'other value means no remember-me cookie, not a 400 after the login already happened',
  },
  getDirectoryListing: {
    'body: required true':
      'Fastify validates a declared body, so a request sends one (at least {}), as the web clients do; an empty ' +
      'request is a 400 instead of the roots',
  },
  getFontFile: {
    'response 206: extra': 'Range requests are answered with 206 Partial Content (the EPUB reader streams fonts)',
  },
  updatePasswordByUserId: { 'body.currentPassword: extra': CURRENT_PASSWORD },
  updatePasswordForCurrentUser: { 'body.currentPassword: extra': CURRENT_PASSWORD },
  addUserUploadedCollectionThumbnail: uploadBody,
  addUserUploadedReadListThumbnail: uploadBody,
  getReadLists: {
    'parameter query sort: extra':
      "Komga sorts read lists by Spring's `sort` (name, createdDate, lastModifiedDate), which its document hides",
  },
  getAuthorsDeprecated: idList('library_id', 'collection_id', 'series_id'),
  getBookTags: idList('series_id', 'readlist_id'),
  getSeriesTags: idList('library_id', 'collection_id'),
  getAgeRatings_1: idList('collection_id'),
  getGenres_1: idList('collection_id'),
  getLanguages_1: idList('collection_id'),
  getPublishers_1: idList('collection_id'),
  getSeriesReleaseDates: idList('collection_id'),
  getSharingLabels_1: idList('collection_id'),
  getTags_1: idList('collection_id'),
};
