import { useCallback, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import PlaylistPlayIcon from '@mui/icons-material/PlaylistPlay';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import type { BookDto, ReadListDto } from '@quire/api';
import { readListCblUrl, readListFileUrl } from '../../api/actions';
import { bookKeys, bookQueries, useReadListBooks } from '../../api/books';
import { useReorderReadList } from '../../api/metadata';
import { useReadList } from '../../api/readlists';
import { ALL_LIBRARIES } from '../../app/preferences';
import { BookCard } from '../../components/browse/BookCard';
import { useItemDialogs } from '../../components/browse/dialogs';
import { EmptyState } from '../../components/browse/EmptyState';
import { FilterButton } from '../../components/browse/FilterDrawer';
import { activeCount } from '../../components/browse/filters';
import type { SelectableCardProps } from '../../components/browse/ItemCard';
import { ItemGrid } from '../../components/browse/ItemGrid';
import { DisplayMenu, Pager, usePageSize } from '../../components/browse/Pager';
import { SelectionBar } from '../../components/browse/SelectionBar';
import { useSelection } from '../../components/browse/selection';
import { DetailError, DetailSkeleton, isGone } from './detail/DetailStates';
import { DetailToolbar } from './detail/DetailToolbar';
import { MembersEditor } from './detail/MembersEditor';
import { ListFilterDrawer } from './detail/ListFilterDrawer';
import { ReadMore } from './detail/ReadMore';
import { readListBooksParams, READ_LIST_FILTER_KEYS, useListFilters } from './listFilters';
import { ReadListActionsMenu } from './ReadListActionsMenu';
import { useRoles } from './roles';

/** `/readlists/:readListId` (ui.md §9). */
export function ReadListPage() {
  const { readListId = '' } = useParams();
  const readList = useReadList(readListId);
  if (readList.isPending) return <DetailSkeleton poster={false} />;
  if (!readList.data) return <DetailError error={readList.error} onRetry={() => void readList.refetch()} />;
  if (readList.isError && isGone(readList.error)) return <Navigate to={readListsBrowse} replace />;
  return <ReadListDetail readList={readList.data} />;
}

const readListsBrowse = `/libraries/${ALL_LIBRARIES}/readlists`;

function ReadListDetail({ readList }: { readList: ReadListDto }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const roles = useRoles();
  const dialogs = useItemDialogs();
  const pageSize = usePageSize();
  const [filterOpen, setFilterOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const { filters, apply, page, setPage, params } = useListFilters('readList', readList.id, READ_LIST_FILTER_KEYS);
  const books = useReadListBooks(readList.id, {
    ...readListBooksParams(filters),
    page: page - 1,
    size: pageSize,
  });
  const selection = useSelection(`${params.toString()}|${pageSize}`);
  const filterCount = activeCount(filters);
  const count = readList.bookIds.length;

  const back = { to: readListsBrowse, label: t('items.nav.toReadLists') };
  const renderBook = useCallback(
    (b: BookDto, sel: SelectableCardProps) => (
      <BookCard
        book={b}
        showSeries
        readListId={readList.id}
        line={readList.ordered ? 'pages' : 'releaseDate'}
        onEdit={roles.admin ? () => dialogs.editBooks([b]) : undefined}
        {...sel}
      />
    ),
    [readList.id, readList.ordered, roles.admin, dialogs],
  );

  if (editing) return <ReadListMembersEditor readList={readList} back={back} onDone={() => setEditing(false)} />;

  return (
    <Box>
      {selection.count === 0 && (
        <DetailToolbar
          back={back}
          titleIsHeading
          title={readList.name}
          after={
            <>
              <Chip size="small" label={count} aria-label={t('items.readList.books', { count })} />
              {readList.ordered && (
                <Typography
                  variant="body2"
                  color="text.secondary"
                  sx={{ fontStyle: 'italic', display: { xs: 'none', sm: 'block' } }}
                >
                  {t('items.list.manualOrdering')}
                </Typography>
              )}
            </>
          }
          actions={
            <>
              {roles.admin && (
                <Tooltip title={t('items.list.editElements')}>
                  <IconButton aria-label={t('items.list.editElements')} onClick={() => setEditing(true)}>
                    <PlaylistPlayIcon />
                  </IconButton>
                </Tooltip>
              )}
              {roles.admin && (
                <Tooltip title={t('items.actions.edit')}>
                  <IconButton aria-label={t('items.actions.edit')} onClick={() => dialogs.editReadList(readList)}>
                    <EditIcon />
                  </IconButton>
                </Tooltip>
              )}
              <DisplayMenu />
              <FilterButton count={filterCount} modified={filterCount > 0} onClick={() => setFilterOpen(true)} />
              <ReadListActionsMenu
                readList={readList}
                size="medium"
                onDeleted={() => void navigate(readListsBrowse, { replace: true })}
              />
            </>
          }
        />
      )}
      <SelectionBar selection={selection} page={{ kind: 'book', items: books.data?.content ?? [] }} dialogs={dialogs} />
      {dialogs.element}

      <Box sx={{ p: { xs: 2, sm: 3 } }}>
        {(readList.summary || count > 0) && (
          <Stack spacing={1.5} sx={{ mb: 3, maxWidth: 900 }}>
            {readList.summary && <ReadMore text={readList.summary} />}
            {count > 0 && (
              <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
                {roles.download && (
                  <Button
                    variant="outlined"
                    startIcon={<DownloadIcon />}
                    component="a"
                    href={readListFileUrl(readList.id)}
                    download
                  >
                    {t('items.actions.download')}
                  </Button>
                )}
                <Button
                  variant="outlined"
                  startIcon={<FileDownloadIcon />}
                  component="a"
                  href={readListCblUrl(readList.id)}
                  download
                >
                  {t('items.actions.exportCbl')}
                </Button>
              </Stack>
            )}
          </Stack>
        )}
        {readList.filtered && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('items.list.filteredReadList')}
          </Alert>
        )}
        {books.data && books.data.content.length === 0 ? (
          <EmptyState
            icon={<SearchOffIcon />}
            title={filterCount ? t('items.filter.noMatch') : t('items.readList.empty')}
            subtitle={filterCount ? t('items.filter.noMatchHint') : undefined}
          >
            {filterCount > 0 && (
              <Button variant="contained" onClick={() => apply({})}>
                {t('items.filter.reset')}
              </Button>
            )}
          </EmptyState>
        ) : (
          <>
            <ItemGrid
              kind="book"
              label={t('items.readList.booksHeading')}
              items={books.data?.content}
              selection={selection}
              skeletons={Math.min(pageSize, count || 1)}
              renderItem={renderBook}
            />
            <Pager
              page={page}
              totalPages={books.data?.totalPages ?? 0}
              onChange={(p) => {
                setPage(p);
                window.scrollTo({ top: 0 });
              }}
            />
          </>
        )}
      </Box>

      <ListFilterDrawer
        list={{ kind: 'readList', id: readList.id }}
        open={filterOpen}
        onClose={() => setFilterOpen(false)}
        filters={filters}
        onChange={apply}
        onReset={() => apply({})}
      />
    </Box>
  );
}

/** Edit elements of a read list: its books, unfiltered, to remove or reorder (ui.md §9). */
function ReadListMembersEditor({
  readList,
  back,
  onDone,
}: {
  readList: ReadListDto;
  back: { to: string; label: string };
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const all = useQuery(bookQueries.inReadList(readList.id, { unpaged: true }));
  const reorder = useReorderReadList();
  return (
    <MembersEditor
      name={readList.name}
      kind="books"
      ordered={readList.ordered}
      back={back}
      label={t('items.readList.booksHeading')}
      members={all.data?.content.map((b) => ({
        id: b.id,
        title: b.oneshot
          ? b.metadata.title
          : t('items.book.readListEntry', {
              series: b.seriesTitle,
              number: b.metadata.number,
              title: b.metadata.title,
            }),
        subtitle: b.metadata.releaseDate ?? undefined,
      }))}
      loadError={all.error}
      saving={reorder.isPending}
      save={async (bookIds) => {
        await reorder.mutateAsync({ id: readList.id, bookIds });
        // The read list's books are listed under the book keys.
        await qc.invalidateQueries({ queryKey: bookKeys.all });
      }}
      onDone={onDone}
    />
  );
}
