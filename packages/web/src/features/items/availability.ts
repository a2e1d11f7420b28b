import type { BookDto } from '@quire/api';
import { useLibraries } from '../../api/libraries';

/** Whether a library is offline (its root is unreachable). False while the list loads. */
export function useLibraryUnavailable(libraryId: string): boolean {
  return !!useLibraries().data?.find((l) => l.id === libraryId)?.unavailable;
}

/** A book can be opened in a reader: analysed, on disk, in a reachable library. */
export const isReadable = (book: BookDto, libraryUnavailable: boolean) =>
  book.media.status === 'READY' && !book.deleted && !libraryUnavailable;

export const isRead = (book: BookDto) => !!book.readProgress?.completed;
export const isInProgress = (book: BookDto) => !!book.readProgress && !book.readProgress.completed;
