/** Folder part of a '/'-separated path ('' at the root). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Percent-decoding like Spring's UriUtils.decode ('+' stays '+'); malformed input is kept as is. */
export function decodeHref(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    return href;
  }
}

/** Collapses '.' and '..' segments like java.nio Path.normalize (leading '..' that cannot be resolved are kept). */
export function normalizePath(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else out.push('..');
    } else out.push(seg);
  }
  return out.join('/');
}

/**
 * Komga's `normalizeHref`: resolves `href` against `baseDir` (the OPF or nav/NCX folder), normalises
 * '..', keeps a non-blank `#fragment`. The href must already be decoded.
 */
export function normalizeHref(baseDir: string, href: string): string {
  const hash = href.lastIndexOf('#');
  const anchor = hash >= 0 ? href.slice(hash + 1) : '';
  const base = hash >= 0 ? href.slice(0, hash) : href;
  const resolved = normalizePath(baseDir ? `${baseDir}/${base}` : base);
  return resolved + (anchor.trim() ? `#${anchor}` : '');
}

/** Path without its fragment. */
export function stripFragment(href: string): string {
  const hash = href.indexOf('#');
  return hash >= 0 ? href.slice(0, hash) : href;
}

/**
 * Validates a resource path requested by a client (already percent-decoded): relative, '/'-separated,
 * no '.'/'..' segments, no empty segments, no backslashes nor control characters. Returns null when
 * refused. Case is preserved: resources are matched by exact name (engine.md §4.6).
 */
export function safeResourcePath(path: string): string | null {
  if (!path || path.length > 4096) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(path)) return null;
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path)) return null;
  const segs = path.split('/');
  if (segs.some((s) => s === '' || s === '.' || s === '..')) return null;
  return path;
}
