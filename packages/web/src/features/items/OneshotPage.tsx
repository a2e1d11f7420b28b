import { Navigate, useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { oneshotBookQuery } from '../../api/actions';
import { ApiError } from '../../api/client';
import { useSeries } from '../../api/series';
import { BookDetail } from './BookPage';
import { parseContext } from './context';
import { DetailError, DetailSkeleton, isGone } from './detail/DetailStates';
import { libraryBrowsePath } from './detail/links';

/** `/oneshot/:seriesId` (ui.md §7): a series of one book, shown as that book with the series' fields. */
export function OneshotPage() {
  const { seriesId = '' } = useParams();
  const [search] = useSearchParams();
  const series = useSeries(seriesId);
  const book = useQuery(oneshotBookQuery(seriesId));
  if (series.isPending) return <DetailSkeleton />;
  if (!series.data) return <DetailError error={series.error} onRetry={() => void series.refetch()} />;
  if (series.isError && isGone(series.error)) return <Navigate to={libraryBrowsePath(series.data.libraryId)} replace />;
  if (!series.data.oneshot) {
    const qs = search.toString();
    return <Navigate to={`/series/${encodeURIComponent(seriesId)}${qs ? `?${qs}` : ''}`} replace />;
  }
  if (book.isPending) return <DetailSkeleton />;
  if (book.data === undefined) return <DetailError error={book.error} onRetry={() => void book.refetch()} />;
  if (!book.data) return <DetailError error={new ApiError(404, 'Not Found')} onRetry={() => void book.refetch()} />;
  return <BookDetail book={book.data} oneshot={series.data} context={parseContext(search)} />;
}
