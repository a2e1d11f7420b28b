/** Messages between {@link PdfService} and its worker threads. */
export type PdfRequest =
  | { id: number; op: 'info'; file: string }
  | { id: number; op: 'render'; file: string; page: number; width: number; height: number; quality: number }
  | { id: number; op: 'extract'; file: string; page: number };

export type PdfFailureKind = 'password' | 'corrupt' | 'not-found' | 'access' | 'page-range' | 'encrypted' | 'other';

export interface PdfPageSize {
  /** Crop box width in PDF points (as PDFium reports it, page rotation applied). */
  width: number;
  height: number;
}

export type PdfResponse =
  | { id: number; ok: true; op: 'info'; pageCount: number; pages: PdfPageSize[] }
  | { id: number; ok: true; op: 'render'; bytes: Uint8Array; width: number; height: number }
  | { id: number; ok: true; op: 'extract'; bytes: Uint8Array }
  | { id: number; ok: false; kind: PdfFailureKind; message: string };
