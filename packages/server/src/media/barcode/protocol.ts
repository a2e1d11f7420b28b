/** Messages between the main thread and the barcode worker. */
export type BarcodeRequest =
  /** Grey pixels (one byte each), decoded and downscaled by sharp on the main side (what a page usually comes as). */
  | { grey: { data: Uint8Array; width: number; height: number } }
  /** An image the decoder reads itself (JPEG, PNG, GIF, BMP): for what sharp cannot decode. */
  | { image: Uint8Array };

export type BarcodeResponse = { ok: true; ean13: string[] } | { ok: false; message: string };
