import { Link as RouterLink } from 'react-router';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import type { BookDto } from '@quire/api';
import { useLibraries } from '../../api/libraries';

/** The cells the media management tables share (ui.md §13.6). */

/** A book's own page: a one-shot's is its series'. */
export const bookPath = (book: Pick<BookDto, 'id' | 'seriesId' | 'oneshot'>) =>
  book.oneshot ? `/oneshot/${book.seriesId}` : `/book/${book.id}`;

export function BookLink({ book }: { book: BookDto }) {
  return (
    <Link component={RouterLink} to={bookPath(book)}>
      {book.metadata.title || book.name}
    </Link>
  );
}

export function SeriesLink({ book }: { book: BookDto }) {
  return (
    <Link component={RouterLink} to={book.oneshot ? `/oneshot/${book.seriesId}` : `/series/${book.seriesId}`}>
      {book.seriesTitle}
    </Link>
  );
}

/** Library names by id, for the Library column (the book lists carry only the id). */
export function useLibraryNames(): (id: string) => string {
  const libraries = useLibraries();
  const names = new Map((libraries.data ?? []).map((l) => [l.id, l.name]));
  return (id) => names.get(id) ?? '';
}

/** The file is gone from disk (the book is in the trash until the trash is emptied). */
export function UnavailableChip({ book, label }: { book: BookDto; label: string }) {
  return book.deleted ? <Chip size="small" color="error" variant="outlined" label={label} /> : null;
}
