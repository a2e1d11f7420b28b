import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ImageIcon from '@mui/icons-material/Image';
import { useTranslation } from 'react-i18next';
import type { BookDto, SeriesDto } from '@quire/api';
import { useBooks, type BookCondition } from '../../api/books';
import { useAnalyzeSeries } from '../../api/actions';
import { useSeriesWithoutPoster } from '../../api/series';
import { DataTable, RowAction, sortParam, useTableState, type DataColumn } from '../../components/DataTable';
import { useActionErrorText } from '../items/errors';
import { showItemToast } from '../items/toast';
import { BookLink, SeriesLink, UnavailableChip } from './bookColumns';
import { FilePath } from '../../components/FilePath';
import { SelectionActions, useAnalysisAction } from './useAnalysisAction';

/** ui.md §13.6: readable books with no selected poster. */
export const MISSING_POSTERS: BookCondition = {
  allOf: [
    { mediaStatus: { operator: 'is', value: 'READY' } },
    { poster: { operator: 'isNot', value: { selected: true } } },
  ],
};

/**
 * Missing posters (ui.md §13.6): readable books without a poster, then series with no poster at all. Regenerating
 * one analyses the book (or every book of the series) again, which makes its poster from the first page that decodes.
 */
export function MissingPostersTab() {
  return (
    <Stack spacing={4}>
      <BooksWithoutPoster />
      <SeriesWithoutPoster />
    </Stack>
  );
}

function BooksWithoutPoster() {
  const { t } = useTranslation();
  const headingId = useId();
  const table = useTableState({ property: 'name', order: 'asc' });
  const books = useBooks({
    condition: MISSING_POSTERS,
    page: table.page,
    size: table.size,
    sort: [sortParam(table.sort)],
  });
  const posters = useAnalysisAction(MISSING_POSTERS, 'media.postersQueued', () => table.setSelected(new Set()));

  const columns: DataColumn<BookDto>[] = [
    { key: 'series', label: t('media.columns.series'), render: (b) => <SeriesLink book={b} /> },
    { key: 'book', label: t('media.columns.book'), sort: 'name', render: (b) => <BookLink book={b} /> },
    {
      key: 'mediaType',
      label: t('media.columns.mediaType'),
      sort: 'media.mediaType',
      render: (b) => b.media.mediaType,
    },
    {
      key: 'url',
      label: t('media.columns.url'),
      sort: 'url',
      render: (b) => <FilePath path={b.url} />,
      sx: { minWidth: 200 },
    },
    { key: 'unavailable', label: '', render: (b) => <UnavailableChip book={b} label={t('media.unavailable')} /> },
    {
      key: 'actions',
      label: '',
      render: (b) => (
        <RowAction
          title={t('media.regeneratePoster')}
          label={t('media.regeneratePosterOf', { name: b.metadata.title || b.name })}
          icon={<ImageIcon fontSize="small" />}
          onClick={() => posters.run([b.id])}
        />
      ),
    },
  ];
  const total = books.data?.totalElements ?? 0;

  return (
    <Stack spacing={2}>
      <Typography id={headingId} variant="h6" component="h2">
        {t('media.missingPostersHeading')}
      </Typography>
      <SelectionActions
        icon={<ImageIcon />}
        selectedLabel={t('media.regenerateSelected', { count: table.selected.size })}
        allLabel={t('media.regenerateAll', { count: total })}
        selected={table.selected}
        total={total}
        action={posters}
      />
      <DataTable
        labelledBy={headingId}
        columns={columns}
        query={books}
        rowKey={(b) => b.id}
        {...table.paging}
        empty={t('media.noMissingPosters')}
        selection={{
          selected: table.selected,
          onChange: table.setSelected,
          rowLabel: (b) => t('media.selectBook', { name: b.metadata.title || b.name }),
        }}
      />
    </Stack>
  );
}

function SeriesWithoutPoster() {
  const { t } = useTranslation();
  const headingId = useId();
  // The server orders these by title; the table offers no other order.
  const table = useTableState({ property: 'title', order: 'asc' });
  const analyze = useAnalyzeSeries();
  const errorText = useActionErrorText();
  const series = useSeriesWithoutPoster({ page: table.page, size: table.size });
  const regenerate = (s: SeriesDto) =>
    analyze.mutate(
      { ids: [s.id] },
      {
        onSuccess: () => showItemToast(t('media.seriesPostersQueued', { name: s.metadata.title })),
        onError: (error) => showItemToast(errorText(error), 'error'),
      },
    );
  const columns: DataColumn<SeriesDto>[] = [
    {
      key: 'series',
      label: t('media.columns.series'),
      render: (s) => (
        <Link component={RouterLink} to={`/${s.oneshot ? 'oneshot' : 'series'}/${s.id}`}>
          {s.metadata.title}
        </Link>
      ),
    },
    { key: 'books', label: t('media.columns.books'), render: (s) => s.booksCount },
    { key: 'url', label: t('media.columns.url'), render: (s) => <FilePath path={s.url} />, sx: { minWidth: 200 } },
    {
      key: 'actions',
      label: '',
      render: (s) => (
        <RowAction
          title={t('media.regeneratePoster')}
          label={t('media.regeneratePosterOf', { name: s.metadata.title })}
          icon={<ImageIcon fontSize="small" />}
          onClick={() => regenerate(s)}
        />
      ),
    },
  ];
  return (
    <Stack spacing={2}>
      <Typography id={headingId} variant="h6" component="h2">
        {t('media.seriesWithoutPosterHeading')}
      </Typography>
      <DataTable
        labelledBy={headingId}
        columns={columns}
        query={series}
        rowKey={(s) => s.id}
        {...table.paging}
        empty={t('media.noSeriesWithoutPoster')}
      />
    </Stack>
  );
}
