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
const linkUrl =
  'Komga refuses a link without url too (its DTO validates it as @NotBlank @URL), though its document marks it optional';

const uploadRequired = {
  'body: required true':
    "Komga refuses an upload without its file part too (400 Required part 'file'); its document does not mark the body required",
};

/**
 * Readium links nest: a page's `alternate` (the page converted to JPEG) and a table of contents' `children` are links
 * too. Komga's manifests carry them as well; its document leaves them out of WPLinkDto.
 */
const nestedLinks = Object.fromEntries(
  [
    'images[]',
    'landmarks[]',
    'links[]',
    'metadata.belongsTo.collection[].links[]',
    'metadata.belongsTo.series[].links[]',
    'pageList[]',
    'readingOrder[]',
    'resources[]',
    'toc[]',
  ].flatMap((at) =>
    ['alternate', 'children'].map((key) => [
      `response 200.${at}.${key}: extra`,
      'Readium links nest (a page and its JPEG alternate, a chapter and its sections); Komga sends them too',
    ]),
  ),
);
const pageNumbering = {
  'parameter query zero_based: extra':
    'Quire counts pages from 0 with zero_based on the raw page and the page thumbnail too, as on the page',
};

export const DELIBERATE_DIFFERENCES: Record<string, Record<string, string>> = {
  getHistoricalEvents: {
    'parameter query type: extra':
      'Quire addition: the history screen filters by event type, which must be done by the server for paging to hold',
  },
  claimServer: {
    'parameter header x-komga-email: required false': CLAIM_HEADER,
    'parameter header x-komga-password: required false': CLAIM_HEADER,
  },
  getFontFile: {
    'response 206: extra': 'Range requests are answered with 206 Partial Content (the EPUB reader streams fonts)',
  },
  updatePasswordByUserId: { 'body.currentPassword: extra': CURRENT_PASSWORD },
  updatePasswordForCurrentUser: { 'body.currentPassword: extra': CURRENT_PASSWORD },
  addUserUploadedCollectionThumbnail: uploadRequired,
  addUserUploadedReadListThumbnail: uploadRequired,
  matchComicRackList: uploadRequired,
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
  getBookProgression: {
    'response 200.locator.locations.fragments: optional (required in Komga)':
      'A gap of the document only: the answer always carries fragments (empty when unknown), but its schema is the ' +
      'PUT body’s, where clients may leave them out; an answer schema of its own would state it',
    'response 204: extra': 'Komga answers 204 too when the book has no progression yet; its document does not say so',
  },
  getAllBooksDeprecated: {
    'parameter query deleted: extra':
      'Mihon sends deleted=false meaning live books only, as on every other list; Komga ignores it and lists deleted books',
  },
  getBookPageByNumber: {
    'parameter header accept: type "string" ≠ "array"':
      "An Accept header is one text on the wire; Komga's document gives Spring's parsed list of media types",
    'parameter query convert: enum [] ≠ [jpeg, png]':
      "Read in any letter case and ignored when empty (api.md §1.9); any other value is refused with Komga's message",
    'parameter query width: extra':
      "Quire's own: the web reader asks for a PDF page at the width it draws it, not 3200 px (issue 18); without it, Komga's page",
  },
  getBookPageRawByNumber: pageNumbering,
  getBookPageThumbnailByNumber: pageNumbering,
  getBookWebPubManifest: nestedLinks,
  getBookWebPubManifestDivina: nestedLinks,
  getBookWebPubManifestEpub: nestedLinks,
  getBookWebPubManifestPdf: nestedLinks,
  getBookPositions: {
    'response 200.positions[].locations.fragments: optional (required in Komga)':
      'A gap of the document only: the answer always carries fragments, but the locator schema is also the web ' +
      "reader's type for its own locators, which may lack them; an answer schema of its own would state it",
  },
  addUserUploadedBookThumbnail: uploadRequired,
  addUserUploadedSeriesThumbnail: uploadRequired,
  updateBookMetadata: { 'body.links[].url: required (optional in Komga)': linkUrl },
  updateBookMetadataByBatch: { 'body{}.links[].url: required (optional in Komga)': linkUrl },
  updateSeriesMetadata: { 'body.links[].url: required (optional in Komga)': linkUrl },
};
