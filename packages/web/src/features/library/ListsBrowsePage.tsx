import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import BookmarksOutlinedIcon from '@mui/icons-material/BookmarksOutlined';
import LayersOutlinedIcon from '@mui/icons-material/LayersOutlined';
import { useTranslation } from 'react-i18next';
import { useIsAdmin } from '../../api/auth';
import { useCollections } from '../../api/collections';
import { useReadLists } from '../../api/readlists';
import { ALL_LIBRARIES } from '../../app/preferences';
import { CollectionCard, ReadListCard } from '../../components/browse/CollectionCard';
import { useItemDialogs } from '../../components/browse/dialogs';
import { EmptyState } from '../../components/browse/EmptyState';
import { ItemGrid } from '../../components/browse/ItemGrid';
import { DisplayMenu, Pager, usePageSize, useScrollTopOnChange } from '../../components/browse/Pager';
import { SelectionBar } from '../../components/browse/SelectionBar';
import { useSelection } from '../../components/browse/selection';
import { ErrorState } from '../../components/ErrorState';
import { LibraryToolbar, libraryScope } from './LibraryToolbar';

/** Page number (1-based) from the URL, and a setter keeping the other parameters. */
function usePageParam() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const setPage = (p: number) => {
    const next = new URLSearchParams(params);
    if (p <= 1) next.delete('page');
    else next.set('page', String(p));
    setParams(next);
  };
  return { page, setPage };
}

/**
 * The collections of a library (ui.md §4.3): a paged grid; admins can select them to delete and edit each from its
 * pencil. An empty view says so and points to the series rather than leaving silently.
 */
export function CollectionsBrowsePage() {
  const { t } = useTranslation();
  const { libraryId = ALL_LIBRARIES } = useParams();
  const admin = useIsAdmin();
  const pageSize = usePageSize();
  const { page, setPage } = usePageParam();
  useScrollTopOnChange(page);
  const dialogs = useItemDialogs();
  const list = useCollections({ libraryIds: libraryScope(libraryId), page: page - 1, size: pageSize });
  const selection = useSelection(`${libraryId}/${page}/${pageSize}`);
  const data = list.data;
  return (
    <>
      <LibraryToolbar
        libraryId={libraryId}
        view="COLLECTIONS"
        total={data?.totalElements}
        hidden={selection.count > 0}
        actions={<DisplayMenu />}
      />
      <SelectionBar selection={selection} page={{ kind: 'collection', items: data?.content ?? [] }} dialogs={dialogs} />
      <Box sx={{ px: { xs: 1.5, sm: 2 }, py: 2 }}>
        <Pager page={page} totalPages={data?.totalPages ?? 0} onChange={setPage} />
        {list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : data?.totalElements === 0 ? (
          <EmptyState
            icon={<LayersOutlinedIcon />}
            title={t('library.empty.noCollections')}
            subtitle={t('library.empty.noCollectionsHint')}
          >
            <Button
              component={RouterLink}
              to={`/libraries/${encodeURIComponent(libraryId)}/series`}
              variant="contained"
            >
              {t('library.empty.toSeries')}
            </Button>
          </EmptyState>
        ) : (
          <ItemGrid
            kind="collection"
            items={data?.content}
            selection={selection}
            selectable={admin}
            skeletons={Math.min(pageSize, 50)}
            label={t('library.views.collections')}
            renderItem={(collection, select) => (
              <CollectionCard
                collection={collection}
                onEdit={admin ? () => dialogs.editCollection(collection) : undefined}
                {...select}
              />
            )}
          />
        )}
        <Pager page={page} totalPages={data?.totalPages ?? 0} onChange={setPage} />
      </Box>
      {dialogs.element}
    </>
  );
}

/** The read lists of a library (ui.md §4.3), like the collections view. */
export function ReadListsBrowsePage() {
  const { t } = useTranslation();
  const { libraryId = ALL_LIBRARIES } = useParams();
  const admin = useIsAdmin();
  const pageSize = usePageSize();
  const { page, setPage } = usePageParam();
  useScrollTopOnChange(page);
  const dialogs = useItemDialogs();
  const list = useReadLists({ libraryIds: libraryScope(libraryId), page: page - 1, size: pageSize });
  const selection = useSelection(`${libraryId}/${page}/${pageSize}`);
  const data = list.data;
  return (
    <>
      <LibraryToolbar
        libraryId={libraryId}
        view="READLISTS"
        total={data?.totalElements}
        hidden={selection.count > 0}
        actions={<DisplayMenu />}
      />
      <SelectionBar selection={selection} page={{ kind: 'readlist', items: data?.content ?? [] }} dialogs={dialogs} />
      <Box sx={{ px: { xs: 1.5, sm: 2 }, py: 2 }}>
        <Pager page={page} totalPages={data?.totalPages ?? 0} onChange={setPage} />
        {list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : data?.totalElements === 0 ? (
          <EmptyState
            icon={<BookmarksOutlinedIcon />}
            title={t('library.empty.noReadLists')}
            subtitle={t('library.empty.noReadListsHint')}
          >
            <Button
              component={RouterLink}
              to={`/libraries/${encodeURIComponent(libraryId)}/series`}
              variant="contained"
            >
              {t('library.empty.toSeries')}
            </Button>
          </EmptyState>
        ) : (
          <ItemGrid
            kind="readlist"
            items={data?.content}
            selection={selection}
            selectable={admin}
            skeletons={Math.min(pageSize, 50)}
            label={t('library.views.readLists')}
            renderItem={(readList, select) => (
              <ReadListCard
                readList={readList}
                onEdit={admin ? () => dialogs.editReadList(readList) : undefined}
                {...select}
              />
            )}
          />
        )}
        <Pager page={page} totalPages={data?.totalPages ?? 0} onChange={setPage} />
      </Box>
      {dialogs.element}
    </>
  );
}
