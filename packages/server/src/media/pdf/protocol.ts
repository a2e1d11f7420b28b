/** Calls and answers between {@link PdfService} and its worker threads. */
export type PdfRequest =
  | { op: 'info'; file: string }
  /** Loads PDFium, opens the file and renders its first page tiny: a thread made warm ahead of a reader's first page. */
  | { op: 'warm'; file: string }
  | { op: 'render'; file: string; page: number; width: number; height: number; quality: number }
  | { op: 'extract'; file: string; page: number };

export type PdfFailureKind = 'password' | 'corrupt' | 'not-found' | 'access' | 'page-range' | 'encrypted' | 'other';

export interface PdfPageSize {
  /** Crop box width in PDF points (as PDFium reports it, page rotation applied). */
  width: number;
  height: number;
}

export type PdfResponse =
  | { ok: true; op: 'info'; pageCount: number; pages: PdfPageSize[] }
  | { ok: true; op: 'warm' }
  | { ok: true; op: 'render'; bytes: Uint8Array; width: number; height: number }
  | { ok: true; op: 'extract'; bytes: Uint8Array }
  | { ok: false; kind: PdfFailureKind; message: string };
