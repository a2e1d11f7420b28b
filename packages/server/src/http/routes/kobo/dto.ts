/**
 * Kobo's JSON (api.md §8.2: UpperCamelCase, the shapes Komga sends): entitlements, book metadata and reading
 * states, built from Quire's book views and stored read progress. Pure: the routes fetch, these shape.
 */
import type { BookView } from '../../../db/queries/books.js';
import type { StoredReadProgress } from '../../../domain/read-progress.js';
import type { SyncedReadList } from '../../../domain/sync-point.js';

/** Kobo's "no category / no genre" id, which every imported book carries. */
const NO_CATEGORY = '00000000-0000-0000-0000-000000000001';

export type KoboFormat = 'KEPUB' | 'EPUB3' | 'EPUB3FL';

/** How a book is offered for download: its format, and whether the download converts it with kepubify. */
export interface Download {
  format: KoboFormat;
  convertKepub: boolean;
}

/** Kobo's `Finished` and `Reading` states come from Quire's progress; no progress is `ReadyToRead`. */
type KoboStatus = 'ReadyToRead' | 'Reading' | 'Finished';

const iso = (date: string) => new Date(date).toISOString();

/** The device's entitlement to a book; a removed book may be gone from the database, so only its id is needed. */
function entitlementOf(id: string, created: string, lastModified: string, removed: boolean) {
  return {
    Accessibility: 'Full',
    ActivePeriod: { From: created },
    Created: created,
    CrossRevisionId: id,
    Id: id,
    IsHiddenFromArchive: false,
    IsLocked: false,
    IsRemoved: removed,
    LastModified: lastModified,
    OriginCategory: 'Imported',
    RevisionId: id,
    Status: 'Active',
  };
}

export const entitlement = (book: BookView) =>
  entitlementOf(book.id, iso(book.createdDate), iso(book.lastModifiedDate), false);

export function removedEntitlement(bookId: string, now: Date) {
  return { BookEntitlement: entitlementOf(bookId, now.toISOString(), now.toISOString(), true) };
}

export function bookMetadata(book: BookView, downloadUrl: string, download: Download) {
  const m = book.metadata;
  const numberFloat = Number.isFinite(m.numberSort) ? m.numberSort : 0;
  return {
    Categories: [NO_CATEGORY],
    ContributorRoles: m.authors.map((a) => ({ Name: a.name })),
    Contributors: [...new Set(m.authors.map((a) => a.name))],
    CoverImageId: book.id,
    CrossRevisionId: book.id,
    CurrentDisplayPrice: { CurrencyCode: 'USD', TotalAmount: 0 },
    CurrentLoveDisplayPrice: { TotalAmount: 0 },
    Description: m.summary || null,
    DownloadUrls: [{ Format: download.format, Size: book.fileSize, Url: downloadUrl, Platform: 'Generic' }],
    EntitlementId: book.id,
    ExternalIds: [],
    Genre: NO_CATEGORY,
    IsEligibleForKoboLove: false,
    IsInternetArchive: false,
    IsPreOrder: false,
    IsSocialEnabled: true,
    Isbn: m.isbn || null,
    Language: book.seriesLanguage || 'en',
    PhoneticPronunciations: {},
    PublicationDate: m.releaseDate ? `${m.releaseDate}T00:00:00Z` : null,
    Publisher: null,
    RevisionId: book.id,
    Series: book.oneshot
      ? null
      : { Id: book.seriesId, Name: book.seriesTitle, Number: m.number, NumberFloat: numberFloat },
    Slug: null,
    SubTitle: null,
    Title: m.title,
    WorkId: book.id,
  };
}

interface StoredLocator {
  href?: unknown;
  koboSpan?: unknown;
  locations?: { progression?: unknown; totalProgression?: unknown };
}

/**
 * The user's progress on a book as Kobo's reading state. Percentages are 0–100: the whole book from the stored
 * total progression (else pages), the current chapter from the locator's progression; the location is the
 * chapter and its koboSpan when progress came from a Kobo or an EPUB reader that stores one.
 */
export function readingState(
  bookId: string,
  pageCount: number,
  progress: StoredReadProgress | undefined,
  fallbackDate: string,
) {
  const modified = iso(progress?.lastModifiedDate ?? fallbackDate);
  const status: KoboStatus = !progress ? 'ReadyToRead' : progress.completed ? 'Finished' : 'Reading';
  const locator = (progress?.locator ?? null) as StoredLocator | null;
  const total = typeof locator?.locations?.totalProgression === 'number' ? locator.locations.totalProgression : null;
  const chapter = typeof locator?.locations?.progression === 'number' ? locator.locations.progression : null;
  const percent = progress
    ? progress.completed
      ? 100
      : total !== null
        ? total * 100
        : pageCount > 0
          ? (progress.page / pageCount) * 100
          : 0
    : null;
  const location =
    typeof locator?.href === 'string' && typeof locator.koboSpan === 'string'
      ? { Source: locator.href, Type: 'KoboSpan', Value: locator.koboSpan }
      : null;
  return {
    Created: iso(progress?.createdDate ?? fallbackDate),
    CurrentBookmark: {
      LastModified: modified,
      ...(percent !== null ? { ProgressPercent: percent } : {}),
      ...(chapter !== null ? { ContentSourceProgressPercent: chapter * 100 } : {}),
      ...(location ? { Location: location } : {}),
    },
    EntitlementId: bookId,
    LastModified: modified,
    PriorityTimestamp: modified,
    Statistics: { LastModified: modified },
    StatusInfo: {
      LastModified: modified,
      Status: status,
      TimesStartedReading: progress ? 1 : 0,
      ...(progress ? { LastTimeStartedReading: iso(progress.readDate) } : {}),
    },
  };
}

/**
 * A read list as a collection of the device ("tag"), holding the synced books in list order. A changed one is
 * dated now: its books may have changed without the list (a book hidden or shown), and the device keeps the newer.
 */
export function tag(list: SyncedReadList, changedAt: Date | null) {
  return {
    Created: iso(list.createdDate),
    Id: list.id,
    Items: list.bookIds.map((id) => ({ RevisionId: id, Type: 'ProductRevisionTagItem' })),
    LastModified: changedAt ? changedAt.toISOString() : iso(list.lastModifiedDate),
    Name: list.name,
    Type: 'UserTag',
  };
}
