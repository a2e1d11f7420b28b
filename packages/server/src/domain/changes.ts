/**
 * Scan reconciliation as a pure computation (engine.md §2.4–§2.7): given what the database held for
 * a library (series and books, soft-deleted ones included) and a fresh walk of its folder, decide what
 * is added, changed, unchanged, missing (to soft-delete) and restored (renamed/moved, matched by size +
 * hash). The only effect is the `hash` callback, called lazily and at most once per URL.
 *
 * The caller applies the result in Komga's order: soft-delete `missing` series (with their books) and
 * books, create added series, update changed series/books, add books, apply restores (copy media,
 * metadata, progress… from `restoredFrom`, then hard-delete it), sort `toSort` + new series, refresh.
 */

/** A series row as stored. Times are epoch milliseconds, compared at ms precision (§1.1). */
export interface SnapshotSeries {
  id: string;
  url: string;
  fileLastModified: number;
  deletedDate: Date | null;
}

export interface SnapshotBook {
  id: string;
  seriesId: string;
  url: string;
  fileSize: number;
  fileLastModified: number;
  /** '' when not hashed. */
  fileHash: string;
  deletedDate: Date | null;
}

export interface WalkedBook {
  url: string;
  name: string;
  fileSize: number;
  fileLastModified: number;
}

export interface WalkedSeries {
  url: string;
  name: string;
  fileLastModified: number;
  oneshot: boolean;
  books: readonly WalkedBook[];
}

export interface Walk {
  series: readonly WalkedSeries[];
  /**
   * Folders the walk could not read (URLs ending with `/`). Series and books under them are left as
   * they are instead of being soft-deleted (Komga deletes them: §2.1 QUIRK, §16).
   */
  unreadableFolders?: readonly { url: string }[];
}

export interface ReconcileInput {
  /** Every series and book of this library, soft-deleted ones included. */
  library: { series: readonly SnapshotSeries[]; books: readonly SnapshotBook[] };
  /**
   * Soft-deleted series and books of the *other* libraries: restores are searched across all
   * libraries (§2.7). For a deleted series, give all its books.
   */
  otherLibrariesTrash?: { series: readonly SnapshotSeries[]; books: readonly SnapshotBook[] };
  walk: Walk;
  /** Deep scan: inspect the books of every series, not only of changed ones (§2.6). */
  deep: boolean;
  /** Hash of the file at this URL (XXH3-128 hex, §5.1). Called lazily, at most once per URL. */
  hash: (url: string) => Promise<string>;
}

export interface AddedSeries {
  series: WalkedSeries;
  /** A soft-deleted series with the same books (by hash) to take over, then hard-delete. */
  restoredFrom: SnapshotSeries | null;
}

export interface AddedBook {
  book: WalkedBook;
  seriesUrl: string;
  /** The existing series it joins; null when the series is in `series.added`. */
  seriesId: string | null;
  /** Hash computed during reconciliation, '' if none was needed. */
  fileHash: string;
  /** A soft-deleted book with the same size and hash to take over (media, metadata, progress…), then hard-delete. */
  restoredFrom: SnapshotBook | null;
}

export interface ChangedSeries {
  id: string;
  url: string;
  /** The folder time to store. */
  fileLastModified: number;
  /** Folder time differed (else the series is "changed" only because it lost books). */
  timeChanged: boolean;
}

export interface ChangedBook {
  id: string;
  seriesId: string;
  url: string;
  fileSize: number;
  fileLastModified: number;
  /** The hash to store: the new one when computed, '' otherwise (§2.5). */
  fileHash: string;
  /** Content changed (or could not be proven unchanged): media becomes OUTDATED. */
  outdated: boolean;
}

export interface Reconciliation {
  series: {
    added: AddedSeries[];
    /** Existing series whose folder time changed or which lost books: update time, inspect books. */
    changed: ChangedSeries[];
    /** Existing series neither changed nor (unless deep) inspected. */
    unchanged: string[];
    /** Ids of non-deleted series whose URL was not found: soft-delete them and their books. */
    missing: string[];
    /** Ids left alone because they are under an unreadable folder. */
    untouched: string[];
  };
  books: {
    /** All added books, of existing and of new series, in walk order. */
    added: AddedBook[];
    changed: ChangedBook[];
    /** Inspected books whose time is unchanged. Books of uninspected series are listed nowhere. */
    unchanged: string[];
    /** Ids of non-deleted books to soft-delete (URL gone, or their series is missing). */
    missing: string[];
    untouched: string[];
  };
  /** Existing series to `sortBooks` and refresh (new series are always sorted too). */
  toSort: string[];
}

const isUnder = (url: string, folders: readonly string[]) => folders.some((f) => url.startsWith(f));

/** Most recently deleted first, then same URL first, then id: a deterministic candidate order. */
function candidateOrder(url: string) {
  return (a: { url: string; id: string; deletedDate: Date | null }, b: typeof a) =>
    Number(b.url === url) - Number(a.url === url) ||
    (b.deletedDate?.getTime() ?? 0) - (a.deletedDate?.getTime() ?? 0) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Reconciles a walk with the stored library (engine.md §2.4 steps 2–4, §2.5, §2.7).
 *
 * - Series (§2.4.2): a non-deleted series whose URL is not in the walk is missing; its non-deleted
 *   books go with it.
 * - Books (§2.4.3): a non-deleted book whose URL is not in the walk is missing; its series counts as
 *   changed.
 * - Each walked series (§2.4.4), looked up by URL among non-deleted series:
 *   - not found → added (a soft-deleted series with the same URL is *not* revived; the hash restore may
 *     take it over), all its books added;
 *   - found → changed when its time differs (ms) or it lost books. If changed or `deep`, each walked
 *     book is looked up by URL among the non-deleted books: time differs → §2.5; not found → added.
 *     Otherwise its books are not inspected (a file replaced in place is invisible to a normal scan).
 * - Changed book (§2.5), only when the time differs: size equal and a stored hash → hash now; equal
 *   hash → time/size only; else OUTDATED with the new hash or ''.
 * - Restore (§2.7): candidates are soft-deleted books with the same size and a hash (this library —
 *   including books just found missing — and the others). A new book is hashed only when a candidate
 *   exists. A new series takes over a deleted series with the same book count, the same set of sizes,
 *   all hashed, and the same set of hashes. A candidate is used at most once.
 */
export async function reconcileLibrary(input: ReconcileInput): Promise<Reconciliation> {
  const { library, walk, deep } = input;
  const unreadable = (walk.unreadableFolders ?? []).map((f) => f.url);

  const hashes = new Map<string, Promise<string>>();
  const hashOf = (url: string) => {
    let h = hashes.get(url);
    if (!h) {
      h = input.hash(url);
      hashes.set(url, h);
    }
    return h;
  };

  const out: Reconciliation = {
    series: { added: [], changed: [], unchanged: [], missing: [], untouched: [] },
    books: { added: [], changed: [], unchanged: [], missing: [], untouched: [] },
    toSort: [],
  };

  const walkedSeriesUrls = new Set(walk.series.map((s) => s.url));
  const walkedBookUrls = new Set(walk.series.flatMap((s) => s.books.map((b) => b.url)));

  // Step 2: missing series (cascade to their books).
  const deletedNow = new Set<string>();
  const missingSeries = new Set<string>();
  for (const s of library.series) {
    if (s.deletedDate) continue;
    if (walkedSeriesUrls.has(s.url)) continue;
    if (isUnder(s.url, unreadable)) {
      out.series.untouched.push(s.id);
      continue;
    }
    missingSeries.add(s.id);
    out.series.missing.push(s.id);
  }

  // Step 3: missing books; remember their series.
  const seriesWithDeletedBooks = new Set<string>();
  for (const b of library.books) {
    if (b.deletedDate) continue;
    if (missingSeries.has(b.seriesId)) {
      deletedNow.add(b.id);
      out.books.missing.push(b.id);
    } else if (!walkedBookUrls.has(b.url)) {
      if (isUnder(b.url, unreadable)) {
        out.books.untouched.push(b.id);
        continue;
      }
      deletedNow.add(b.id);
      out.books.missing.push(b.id);
      seriesWithDeletedBooks.add(b.seriesId);
    }
  }

  const liveSeriesByUrl = new Map<string, SnapshotSeries>();
  for (const s of library.series) if (!s.deletedDate && !missingSeries.has(s.id)) liveSeriesByUrl.set(s.url, s);
  const liveBooksByUrl = new Map<string, SnapshotBook>();
  for (const b of library.books) if (!b.deletedDate && !deletedNow.has(b.id)) liveBooksByUrl.set(b.url, b);

  // Restore pools: soft-deleted (before or just now) here, and the other libraries' trash.
  const trash = input.otherLibrariesTrash ?? { series: [], books: [] };
  const allBooksBySeries = new Map<string, SnapshotBook[]>();
  for (const b of [...library.books, ...trash.books]) {
    const list = allBooksBySeries.get(b.seriesId) ?? [];
    list.push(b);
    allBooksBySeries.set(b.seriesId, list);
  }
  const usedBooks = new Set<string>();
  const bookPool: SnapshotBook[] = [
    ...library.books.filter((b) => b.deletedDate || deletedNow.has(b.id)),
    ...trash.books.filter((b) => b.deletedDate),
  ].filter((b) => b.fileHash !== '');
  const seriesPool: SnapshotSeries[] = [
    ...library.series.filter((s) => s.deletedDate || missingSeries.has(s.id)),
    ...trash.series.filter((s) => s.deletedDate),
  ];
  const usedSeries = new Set<string>();

  const restoreBook = async (added: AddedBook, preferSeriesId?: string): Promise<void> => {
    const candidates = bookPool
      .filter((c) => !usedBooks.has(c.id) && c.fileSize === added.book.fileSize)
      .sort(candidateOrder(added.book.url))
      // books of the series just taken over first, when several deleted books have this content
      .sort((a, b) => Number(b.seriesId === preferSeriesId) - Number(a.seriesId === preferSeriesId));
    if (candidates.length === 0) return;
    if (added.fileHash === '') added.fileHash = await hashOf(added.book.url);
    const match = candidates.find((c) => c.fileHash === added.fileHash);
    if (match) {
      usedBooks.add(match.id);
      added.restoredFrom = match;
    }
  };

  const restoreSeries = async (added: AddedSeries, books: AddedBook[]): Promise<void> => {
    const sizes = new Set(books.map((b) => b.book.fileSize));
    const candidates = seriesPool
      .filter((c) => !usedSeries.has(c.id))
      .sort(candidateOrder(added.series.url))
      .filter((c) => {
        const old = allBooksBySeries.get(c.id) ?? [];
        return (
          old.length === books.length &&
          old.every((b) => b.fileHash !== '') &&
          sameSet(new Set(old.map((b) => b.fileSize)), sizes)
        );
      });
    if (candidates.length === 0) return;
    for (const b of books) if (b.fileHash === '') b.fileHash = await hashOf(b.book.url);
    const newHashes = new Set(books.map((b) => b.fileHash));
    const match = candidates.find((c) =>
      sameSet(new Set(allBooksBySeries.get(c.id)!.map((b) => b.fileHash)), newHashes),
    );
    if (match) {
      usedSeries.add(match.id);
      added.restoredFrom = match;
    }
  };

  // Step 4.
  for (const ws of walk.series) {
    const existing = liveSeriesByUrl.get(ws.url);
    if (!existing) {
      const added: AddedSeries = { series: ws, restoredFrom: null };
      const books = ws.books.map((book): AddedBook => ({
        book,
        seriesUrl: ws.url,
        seriesId: null,
        fileHash: '',
        restoredFrom: null,
      }));
      out.series.added.push(added);
      out.books.added.push(...books);
      await restoreSeries(added, books);
      for (const b of books) await restoreBook(b, added.restoredFrom?.id);
      continue;
    }

    const timeChanged = existing.fileLastModified !== ws.fileLastModified;
    const changed = timeChanged || seriesWithDeletedBooks.has(existing.id);
    if (changed) {
      out.series.changed.push({
        id: existing.id,
        url: existing.url,
        fileLastModified: ws.fileLastModified,
        timeChanged,
      });
    } else {
      out.series.unchanged.push(existing.id);
    }
    if (!changed && !deep) continue;
    out.toSort.push(existing.id);

    for (const wb of ws.books) {
      const stored = liveBooksByUrl.get(wb.url);
      if (!stored) {
        const added: AddedBook = {
          book: wb,
          seriesUrl: ws.url,
          seriesId: existing.id,
          fileHash: '',
          restoredFrom: null,
        };
        out.books.added.push(added);
        await restoreBook(added);
        continue;
      }
      if (stored.fileLastModified === wb.fileLastModified) {
        out.books.unchanged.push(stored.id);
        continue;
      }
      out.books.changed.push(await changedBook(stored, wb, hashOf));
    }
  }

  return out;
}

/** §2.5: a stored book whose time differs. Size alone never opens this check. */
async function changedBook(
  stored: SnapshotBook,
  walked: WalkedBook,
  hashOf: (url: string) => Promise<string>,
): Promise<ChangedBook> {
  const base = {
    id: stored.id,
    seriesId: stored.seriesId,
    url: stored.url,
    fileSize: walked.fileSize,
    fileLastModified: walked.fileLastModified,
  };
  if (walked.fileSize === stored.fileSize && stored.fileHash !== '') {
    const fileHash = await hashOf(walked.url);
    return { ...base, fileHash, outdated: fileHash !== stored.fileHash };
  }
  return { ...base, fileHash: '', outdated: true };
}

function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}
