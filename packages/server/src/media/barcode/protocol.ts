/** Messages between the main thread and the barcode worker. */
export interface BarcodeRequest {
  /** The page's encoded bytes (JPEG, PNG, WebP…): a view of a buffer shared with the caller, read where it is. */
  image: Uint8Array;
  /** Its size from the header, when the caller read it (the thread reads the header itself otherwise). */
  size: { width: number; height: number } | null;
  /** Decoded whole up to this many pixels, brought down to it beyond (a JPEG's shrink-on-load where it can). */
  maxPixels: number;
  /** sharp's refusal limit (media limits), for what the caller could not size from the header. */
  limitInputPixels: number;
  /**
   * The decoders to try, in order, until one reads the image: `zxing`, zxing's own (stb_image, in its WebAssembly
   * heap: JPEG, PNG, GIF, BMP), only for images whose header was checked against the media limits; `libvips`
   * through sharp.
   */
  decoders: ('zxing' | 'libvips')[];
}

export type BarcodeResponse = { ok: true; ean13: string[] } | { ok: false; message: string };
