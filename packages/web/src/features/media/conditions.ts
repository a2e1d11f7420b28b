import type { MediaStatus } from '@quire/api';
import { allOf, inLibraries, type BookCondition } from '../../api/books';

/**
 * What the media analysis lists, apart from its screen: the navigation drawer counts the same books for its
 * "books to check" dot (ui.md §1.3, §13.6).
 */

/** The statuses a book can need attention in (not READY), in the order the chips show them. */
export const STATUSES = ['ERROR', 'UNSUPPORTED', 'OUTDATED', 'UNKNOWN'] as const satisfies readonly MediaStatus[];
/** ui.md §13.6: Error and Unsupported on at first. */
export const DEFAULT_STATUSES: readonly MediaStatus[] = ['ERROR', 'UNSUPPORTED'];

/** The books the filters select: any of the statuses, in any of the libraries (all when none is chosen). */
export function analysisCondition(statuses: readonly MediaStatus[], libraryIds: readonly string[]): BookCondition {
  return allOf<BookCondition>([
    { anyOf: statuses.map((value) => ({ mediaStatus: { operator: 'is' as const, value } })) },
    inLibraries(libraryIds),
  ])!;
}
