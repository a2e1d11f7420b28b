import { useCallback, type ReactNode } from 'react';
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
import { useItemDialogs, type ItemDialogs } from '../../components/browse/dialogs';
import { EmptyState } from '../../components/browse/EmptyState';
import { ItemGrid } from '../../components/browse/ItemGrid';
import { DisplayMenu, Pager, usePageSize, useScrollTopOnChange } from '../../components/browse/Pager';
import { SelectionBar } from '../../components/browse/SelectionBar';
import { useSelection, type SelectableItems, type Selection } from '../../components/browse/selection';
import type { SelectableCardProps } from '../../components/browse/ItemCard';
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

/** What the collections and read-lists views share: the library, the page from the URL and the page size. */
function useListsPaging() {
  const { libraryId = ALL_LIBRARIES } = useParams();
  const pageSize = usePageSize();
  const { page, setPage } = usePageParam();
  useScrollTopOnChange(page);
  const params = { libraryIds: libraryScope(libraryId), page: page - 1, size: pageSize };
  return { libraryId, pageSize, page, setPage, params };
}

type ListKind = 'collection' | 'readlist';

interface ListsViewProps<K extends ListKind> {
  kind: K;
  view: 'COLLECTIONS' | 'READLISTS';
  paging: ReturnType<typeof useListsPaging>;
  list: ReturnType<typeof useCollections> | ReturnType<typeof useReadLists>;
  empty: { icon: ReactNode; title: string; hint: string };
  label: string;
  /** One card; a function of its arguments alone (the grid renders a card again only when they change). */
  renderItem: (
    item: SelectableItems[K],
    select: SelectableCardProps,
    context: { admin: boolean; dialogs: ItemDialogs },
  ) => ReactNode;
}

/**
 * A library's collections or read lists (ui.md §4.3): a paged grid; admins can select them to delete and edit each
 * from its pencil. An empty view says so and points to the series rather than leaving silently.
 */
function ListsView<K extends ListKind>({ kind, view, paging, list, empty, label, renderItem }: ListsViewProps<K>) {
  const { t } = useTranslation();
  const admin = useIsAdmin();
  const dialogs = useItemDialogs();
  const { libraryId, page, setPage, pageSize } = paging;
  const selection: Selection = useSelection(`${libraryId}/${page}/${pageSize}`);
  const data = list.data;
  const items = data?.content as readonly SelectableItems[K][] | undefined;
  const selectionPage = { kind, items: items ?? [] } as Parameters<typeof SelectionBar>[0]['page'];
  const renderCard = useCallback(
    (item: SelectableItems[K], select: SelectableCardProps) => renderItem(item, select, { admin, dialogs }),
    [renderItem, admin, dialogs],
  );
  return (
    <>
      <LibraryToolbar
        libraryId={libraryId}
        view={view}
        total={data?.totalElements}
        hidden={selection.count > 0}
        actions={<DisplayMenu />}
      />
      <SelectionBar selection={selection} page={selectionPage} dialogs={dialogs} />
      <Box sx={{ px: { xs: 1.5, sm: 2 }, py: 2 }}>
        <Pager page={page} totalPages={data?.totalPages ?? 0} onChange={setPage} />
        {list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : data?.totalElements === 0 ? (
          <EmptyState icon={empty.icon} title={empty.title} subtitle={empty.hint}>
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
            kind={kind}
            items={items}
            selection={selection}
            selectable={admin}
            skeletons={Math.min(pageSize, 50)}
            label={label}
            renderItem={renderCard}
          />
        )}
        <Pager page={page} totalPages={data?.totalPages ?? 0} onChange={setPage} />
      </Box>
      {dialogs.element}
    </>
  );
}

export function CollectionsBrowsePage() {
  const { t } = useTranslation();
  const paging = useListsPaging();
  const list = useCollections(paging.params);
  return (
    <ListsView
      kind="collection"
      view="COLLECTIONS"
      paging={paging}
      list={list}
      empty={{
        icon: <LayersOutlinedIcon />,
        title: t('library.empty.noCollections'),
        hint: t('library.empty.noCollectionsHint'),
      }}
      label={t('library.views.collections')}
      renderItem={renderCollection}
    />
  );
}

const renderCollection: ListsViewProps<'collection'>['renderItem'] = (collection, select, { admin, dialogs }) => (
  <CollectionCard
    collection={collection}
    onEdit={admin ? () => dialogs.editCollection(collection) : undefined}
    {...select}
  />
);

export function ReadListsBrowsePage() {
  const { t } = useTranslation();
  const paging = useListsPaging();
  const list = useReadLists(paging.params);
  return (
    <ListsView
      kind="readlist"
      view="READLISTS"
      paging={paging}
      list={list}
      empty={{
        icon: <BookmarksOutlinedIcon />,
        title: t('library.empty.noReadLists'),
        hint: t('library.empty.noReadListsHint'),
      }}
      label={t('library.views.readLists')}
      renderItem={renderReadList}
    />
  );
}

const renderReadList: ListsViewProps<'readlist'>['renderItem'] = (readList, select, { admin, dialogs }) => (
  <ReadListCard readList={readList} onEdit={admin ? () => dialogs.editReadList(readList) : undefined} {...select} />
);
