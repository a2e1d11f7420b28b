/**
 * Where Quire's OpenAPI document deliberately differs from Komga's (komga-openapi.json), operation by operation,
 * each with its reason. The contract test fails on any difference not listed here, and on a listed one that no
 * longer exists, so this list stays short and true.
 */
const linkUrl =
  'Komga refuses a link without url too (its DTO validates it as @NotBlank @URL), though its document marks it optional';

/** Komga's document gives its images and pages as a `default` answer; ours gives the 200 the server sends. */
const imageAnswer = { 'response 200: extra': "Komga's document calls the 200 with the image its default answer" };
const uploadRequired = {
  'body: required true':
    "Komga refuses an upload without its file part too (400 Required part 'file'); its document does not mark the body required",
};

export const DELIBERATE_DIFFERENCES: Record<string, Record<string, string>> = {
  getBookProgression: {
    'response 200.locator.locations.fragments: optional (required in Komga)':
      'One schema serves PUT, where clients may leave fragments out; the answer always carries it (empty when unknown)',
    'response 204: extra': 'Komga answers 204 too when the book has no progression yet; its document does not say so',
  },
  getBookThumbnail: imageAnswer,
  getBookThumbnailById: imageAnswer,
  getSeriesThumbnail: imageAnswer,
  getSeriesThumbnailById: imageAnswer,
  addUserUploadedBookThumbnail: uploadRequired,
  addUserUploadedSeriesThumbnail: uploadRequired,
  updateBookMetadata: { 'body.links[].url: required (optional in Komga)': linkUrl },
  updateBookMetadataByBatch: { 'body{}.links[].url: required (optional in Komga)': linkUrl },
  updateSeriesMetadata: { 'body.links[].url: required (optional in Komga)': linkUrl },
};
