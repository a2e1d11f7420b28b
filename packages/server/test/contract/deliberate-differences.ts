/**
 * Where Quire's OpenAPI document deliberately differs from Komga's (komga-openapi.json), operation by operation,
 * each with its reason. The contract test fails on any difference not listed here, and on a listed one that no
 * longer exists, so this list stays short and true.
 */
const linkUrl =
  'Komga refuses a link without url too (its DTO validates it as @NotBlank @URL), though its document marks it optional';

export const DELIBERATE_DIFFERENCES: Record<string, Record<string, string>> = {
  getBookProgression: {
    'response 200.locator.locations.fragments: optional (required in Komga)':
      'One schema serves PUT, where clients may leave fragments out; the answer always carries it (empty when unknown)',
    'response 204: extra': 'Komga answers 204 too when the book has no progression yet; its document does not say so',
  },
  updateBookMetadata: { 'body.links[].url: required (optional in Komga)': linkUrl },
  updateBookMetadataByBatch: { 'body{}.links[].url: required (optional in Komga)': linkUrl },
  updateSeriesMetadata: { 'body.links[].url: required (optional in Komga)': linkUrl },
};
