/** Messages between the main thread and the barcode worker. */
export interface BarcodeRequest {
  /** An image the decoder reads itself (JPEG, PNG, GIF, BMP). */
  image: Uint8Array;
}

export type BarcodeResponse = { ok: true; ean13: string[] } | { ok: false; message: string };
