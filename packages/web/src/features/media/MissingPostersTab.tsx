import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ImageIcon from '@mui/icons-material/Image';
import { useTranslation } from 'react-i18next';
import type { BookDto, SeriesDto } from '@quire/api';
import { fetchBookList, useBooks, type BookCondition } from '../../api/books';
import { useAnalyzeBooks, useAnalyzeSeries } from '../../api/actions';
import { useSeriesWithoutPoster } from '../../api/series';
import { DataTable, sortParam, type DataColumn, type TableSort } from '../../components/DataTable';
import { useActionErrorText } from '../items/errors';
import { ItemToastSlot, showItemToast } from '../items/toast';
import { BookLink, FilePath, SeriesLink, UnavailableChip } from './bookColumns';
import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';

/** ui.md §13.6: readable books with no selected poster. */
export const MISSING_POSTERS: BookCondition = {
  allOf: [
    { mediaStatus: { operator: 'is', value: 'READY' } },
    { poster: { operator: 'isNot', value: { selected: true } } },
  ],
};

const DEFAULT_SORT: TableSort = { property: 'name', order: 'asc' };

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

function SeriesWithoutPoster() {
  const { t } = useTranslation();
  const headingId = useId();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const analyze = useAnalyzeSeries();
  const errorText = useActionErrorText();
  const series = useSeriesWithoutPoster({ page, size });
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
        <Tooltip title={t('media.regeneratePoster')}>
          <IconButton
            size="small"
            aria-label={t('media.regeneratePosterOf', { name: s.metadata.title })}
            onClick={() => regenerate(s)}
          >
            <ImageIcon fontSize="small" />
          </IconButton>
        </Tooltip>
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
        page={page}
        size={size}
        sort={SERIES_SORT}
        onPage={setPage}
        onSize={(s) => {
          setSize(s);
          setPage(0);
        }}
        onSort={() => undefined}
        empty={t('media.noSeriesWithoutPoster')}
      />
    </Stack>
  );
}

/** The server orders these by title; the table offers no other order. */
const SERIES_SORT: TableSort = { property: 'title', order: 'asc' };

function BooksWithoutPoster() {
  const { t } = useTranslation();
  const headingId = useId();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const [sort, setSort] = useState(DEFAULT_SORT);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const analyze = useAnalyzeBooks();
  const errorText = useActionErrorText();
  const books = useBooks({ condition: MISSING_POSTERS, page, size, sort: [sortParam(sort)] });

  const regenerate = (ids: string[]) =>
    analyze.mutate(
      { ids },
      {
        onSuccess: () => {
          showItemToast(t('media.postersQueued', { count: ids.length }));
          setSelected(new Set());
        },
        onError: (error) => showItemToast(errorText(error), 'error'),
      },
    );
  const regenerateAll = async () => {
    try {
      const all = await fetchBookList({ condition: MISSING_POSTERS, unpaged: true });
      regenerate(all.content.map((b) => b.id));
    } catch (error) {
      showItemToast(errorText(error), 'error');
    }
  };
  const restart = () => {
    setPage(0);
    setSelected(new Set());
  };

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
        <Tooltip title={t('media.regeneratePoster')}>
          <IconButton
            size="small"
            aria-label={t('media.regeneratePosterOf', { name: b.metadata.title || b.name })}
            onClick={() => regenerate([b.id])}
          >
            <ImageIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ),
    },
  ];
  const total = books.data?.totalElements ?? 0;

  return (
    <Stack spacing={2}>
      <ItemToastSlot />
      <Typography id={headingId} variant="h6" component="h2">
        {t('media.missingPostersHeading')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Button
          variant="outlined"
          startIcon={<ImageIcon />}
          disabled={selected.size === 0 || analyze.isPending}
          onClick={() => regenerate([...selected])}
        >
          {t('media.regenerateSelected', { count: selected.size })}
        </Button>
        <Button
          variant="outlined"
          startIcon={<ImageIcon />}
          disabled={total === 0 || analyze.isPending}
          onClick={() => void regenerateAll()}
        >
          {t('media.regenerateAll', { count: total })}
        </Button>
      </Stack>
      <DataTable
        labelledBy={headingId}
        columns={columns}
        query={books}
        rowKey={(b) => b.id}
        page={page}
        size={size}
        sort={sort}
        onPage={(p) => {
          setPage(p);
          setSelected(new Set());
        }}
        onSize={(s) => {
          setSize(s);
          restart();
        }}
        onSort={(s) => {
          setSort(s);
          restart();
        }}
        empty={t('media.noMissingPosters')}
        selection={{
          selected,
          onChange: setSelected,
          rowLabel: (b) => t('media.selectBook', { name: b.metadata.title || b.name }),
        }}
      />
    </Stack>
  );
}
