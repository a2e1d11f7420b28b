/**
 * @zip.js/zip.js, loaded on first use: only series downloads and RAR → CBZ conversion write ZIPs, and the module
 * costs an idle or scanning server ~2 MB of heap. Web workers off: Node has none to offer it.
 */
let zipJs: Promise<typeof import('@zip.js/zip.js')> | undefined;

export function loadZipJs(): Promise<typeof import('@zip.js/zip.js')> {
  zipJs ??= import('@zip.js/zip.js').then((m) => {
    m.configure({ useWebWorkers: false });
    return m;
  });
  return zipJs;
}
