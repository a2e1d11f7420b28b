/** Messages between the main thread and the barcode worker. */
export interface BarcodeRequest {
  id: number;
  /** An image the decoder reads itself (JPEG, PNG, GIF, BMP). */
  image: Uint8Array;
}

export type BarcodeResponse = { id: number; ok: true; ean13: string[] } | { id: number; ok: false; message: string };
