import { basePath } from '../../api/client';

/**
 * The addresses reading apps are given (api.md §7–8), built from the server's address as this browser reaches it:
 * the page's origin plus the context path. Behind a reverse proxy that is the public address, which is what an
 * e-reader on the same network needs too.
 */
export function readingAppUrls(server = `${window.location.origin}${basePath()}`) {
  return {
    opds1: `${server}/opds/v1.2/catalog`,
    opds2: `${server}/opds/v2/catalog`,
    /** KOReader's "custom sync server"; the API key is the username (`X-Auth-User`). */
    koreader: `${server}/koreader`,
    /** `api_endpoint` in `.kobo/Kobo/Kobo eReader.conf`: the key is part of the path. */
    kobo: (apiKey: string) => `${server}/kobo/${apiKey}`,
  };
}

/** Which app instructions a user's roles make useful: the sync protocols refuse a user without the role. */
export function syncRoles(roles: readonly string[] | undefined) {
  return { koreader: !!roles?.includes('KOREADER_SYNC'), kobo: !!roles?.includes('KOBO_SYNC') };
}
