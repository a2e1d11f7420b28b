/**
 * The resources `v1/initialization` gives a Kobo when the Kobo store is not proxied (api.md §8.2): where the device
 * finds each service. Every service address points back at this server's Kobo endpoint, so a device set up with
 * Quire asks Quire for everything (unknown calls answer `{}`); the store's features the device would otherwise
 * offer (shop, wish list, recommendations…) are switched off.
 */

/** Store API services, as paths under the Kobo endpoint (`{…}` are template fields the device fills in). */
const SERVICES: Record<string, string> = {
  add_entitlement: '/v1/library/{RevisionIds}',
  delete_entitlement: '/v1/library/{Ids}',
  delete_tag: '/v1/library/tags/{TagId}',
  delete_tag_items: '/v1/library/tags/{TagId}/items/delete',
  device_auth: '/v1/auth/device',
  device_refresh: '/v1/auth/refresh',
  get_download_keys: '/v1/library/downloadkeys',
  get_download_link: '/v1/library/downloadlink',
  get_tests_request: '/v1/analytics/gettests',
  library_book: '/v1/user/library/books/{LibraryItemId}',
  library_items: '/v1/user/library',
  library_metadata: '/v1/library/{Ids}/metadata',
  library_prices: '/v1/user/library/previews/prices',
  library_search: '/v1/library/search',
  library_sync: '/v1/library/sync',
  post_analytics_event: '/v1/analytics/event',
  reading_state: '/v1/library/{Ids}/state',
  rename_tag: '/v1/library/tags/{TagId}',
  tag_items: '/v1/library/tags/{TagId}/Items',
  tags: '/v1/library/tags',
  user_loyalty_benefits: '/v1/user/loyalty/benefits',
  user_platform: '/v1/user/platform',
  user_profile: '/v1/user/profile',
  user_ratings: '/v1/user/ratings',
  user_recommendations: '/v1/user/recommendations',
  user_reviews: '/v1/user/reviews',
  user_wishlist: '/v1/user/wishlist',
};

/** Store features the device shows only when told they are there. */
const FEATURES_OFF = [
  'kobo_audiobooks_enabled',
  'kobo_display_price',
  'kobo_dropbox_link_account_enabled',
  'kobo_googledrive_link_account_enabled',
  'kobo_nativeborrow_enabled',
  'kobo_onestorelibrary_enabled',
  'kobo_redeem_enabled',
  'kobo_shelfie_enabled',
  'kobo_subscriptions_enabled',
  'kobo_superpoints_enabled',
  'kobo_wishlist_enabled',
];

/** The built-in resources for a Kobo endpoint (`{base}/kobo/{apiKey}`). */
export function builtInResources(koboBase: string): Record<string, string> {
  const resources: Record<string, string> = {};
  for (const [key, path] of Object.entries(SERVICES)) resources[key] = koboBase + path;
  for (const key of FEATURES_OFF) resources[key] = 'False';
  return resources;
}

/**
 * Where the device loads covers (the store's resources are rewritten the same way, api.md §8.2): this server's
 * poster of the book whose id the device puts in `{ImageId}`.
 */
export function withCoverTemplates(resources: Record<string, unknown>, serverBase: string, koboBase: string) {
  return {
    ...resources,
    image_host: serverBase,
    image_url_template: `${koboBase}/v1/books/{ImageId}/thumbnail/{Width}/{Height}/false/image.jpg`,
    image_url_quality_template: `${koboBase}/v1/books/{ImageId}/thumbnail/{Width}/{Height}/{Quality}/{IsGreyscale}/image.jpg`,
  };
}
