/**
 * The one place sharp (libvips) is loaded, in the main thread and in worker threads, on first use: libvips costs
 * ~25 MB of resident memory once loaded, so an idle server that has shown no image does not pay it.
 *
 * libvips' operation cache is turned off. It keeps the results of recent operations (up to 50 MB and 100 files by
 * default) to answer the same operation again; every image here is a one-off buffer (a page, a poster source), so
 * it never answered twice, and what it held stayed resident after an import had ended (issue 18). The cache is the
 * process's, and sharp turns it back on whenever a thread loads it (its module calls `cache(true)`): a worker
 * thread that imported sharp directly (the PDF and barcode workers did) turned it on again for every thread.
 */
let sharpModule: Promise<typeof import('sharp').default> | undefined;

export function loadSharp(): Promise<typeof import('sharp').default> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return sharpModule;
}
