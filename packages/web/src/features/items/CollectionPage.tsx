import { useCallback, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import PlaylistPlayIcon from '@mui/icons-material/PlaylistPlay';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import type { CollectionDto, SeriesDto } from '@quire/api';
import { useCollection } from '../../api/collections';
import { useReorderCollection } from '../../api/metadata';
import { seriesKeys, seriesQueries, useCollectionSeries } from '../../api/series';
import { ALL_LIBRARIES } from '../../app/preferences';
import { useItemDialogs } from '../../components/browse/dialogs';
import { EmptyState } from '../../components/browse/EmptyState';
import { FilterButton } from '../../components/browse/FilterDrawer';
import { activeCount } from '../../components/browse/filters';
import type { SelectableCardProps } from '../../components/browse/ItemCard';
import { ItemGrid } from '../../components/browse/ItemGrid';
import { DisplayMenu, Pager, usePageSize } from '../../components/browse/Pager';
import { SelectionBar } from '../../components/browse/SelectionBar';
import { SeriesCard } from '../../components/browse/SeriesCard';
import { useSelection } from '../../components/browse/selection';
import { CollectionActionsMenu } from './CollectionActionsMenu';
import { DetailError, DetailSkeleton, isGone } from './detail/DetailStates';
import { DetailToolbar } from './detail/DetailToolbar';
import { MembersEditor } from './detail/MembersEditor';
import { ListFilterDrawer } from './detail/ListFilterDrawer';
import { collectionSeriesParams, COLLECTION_FILTER_KEYS, useListFilters } from './listFilters';
import { useRoles } from './roles';

/** `/collections/:collectionId` (ui.md §8). */
export function CollectionPage() {
  const { collectionId = '' } = useParams();
  const collection = useCollection(collectionId);
  if (collection.isPending) return <DetailSkeleton poster={false} />;
  if (!collection.data) return <DetailError error={collection.error} onRetry={() => void collection.refetch()} />;
  if (collection.isError && isGone(collection.error)) return <Navigate to={collectionsBrowse} replace />;
  return <CollectionDetail collection={collection.data} />;
}

const collectionsBrowse = `/libraries/${ALL_LIBRARIES}/collections`;

function CollectionDetail({ collection }: { collection: CollectionDto }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { admin } = useRoles();
  const dialogs = useItemDialogs();
  const pageSize = usePageSize();
  const [filterOpen, setFilterOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const { filters, apply, page, setPage, params } = useListFilters('collection', collection.id, COLLECTION_FILTER_KEYS);
  const series = useCollectionSeries(collection.id, {
    ...collectionSeriesParams(filters),
    page: page - 1,
    size: pageSize,
  });
  const selection = useSelection(`${params.toString()}|${pageSize}`);
  const filterCount = activeCount(filters);
  const count = collection.seriesIds.length;

  const back = { to: collectionsBrowse, label: t('items.nav.toCollections') };
  const renderSeries = useCallback(
    (s: SeriesDto, sel: SelectableCardProps) => (
      <SeriesCard series={s} onEdit={admin ? () => dialogs.editSeries([s]) : undefined} {...sel} />
    ),
    [admin, dialogs],
  );

  if (editing) return <CollectionMembersEditor collection={collection} back={back} onDone={() => setEditing(false)} />;

  return (
    <Box>
      {selection.count === 0 && (
        <DetailToolbar
          back={back}
          titleIsHeading
          title={collection.name}
          after={
            <>
              <Chip size="small" label={count} aria-label={t('items.collection.series', { count })} />
              {collection.ordered && (
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
              {admin && (
                <Tooltip title={t('items.list.editElements')}>
                  <IconButton aria-label={t('items.list.editElements')} onClick={() => setEditing(true)}>
                    <PlaylistPlayIcon />
                  </IconButton>
                </Tooltip>
              )}
              {admin && (
                <Tooltip title={t('items.actions.edit')}>
                  <IconButton aria-label={t('items.actions.edit')} onClick={() => dialogs.editCollection(collection)}>
                    <EditIcon />
                  </IconButton>
                </Tooltip>
              )}
              <DisplayMenu />
              <FilterButton count={filterCount} modified={filterCount > 0} onClick={() => setFilterOpen(true)} />
              <CollectionActionsMenu
                collection={collection}
                size="medium"
                onDeleted={() => void navigate(collectionsBrowse, { replace: true })}
              />
            </>
          }
        />
      )}
      <SelectionBar
        selection={selection}
        page={{ kind: 'series', items: series.data?.content ?? [] }}
        dialogs={dialogs}
      />
      {dialogs.element}

      <Box sx={{ p: { xs: 2, sm: 3 } }}>
        {collection.filtered && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('items.list.filteredCollection')}
          </Alert>
        )}
        {series.data && series.data.content.length === 0 ? (
          <EmptyState
            icon={<SearchOffIcon />}
            title={filterCount ? t('items.filter.noMatch') : t('items.collection.empty')}
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
              kind="series"
              label={t('items.collection.seriesHeading')}
              items={series.data?.content}
              selection={selection}
              skeletons={Math.min(pageSize, count || 1)}
              renderItem={renderSeries}
            />
            <Pager
              page={page}
              totalPages={series.data?.totalPages ?? 0}
              onChange={(p) => {
                setPage(p);
                window.scrollTo({ top: 0 });
              }}
            />
          </>
        )}
      </Box>

      <ListFilterDrawer
        list={{ kind: 'collection', id: collection.id }}
        open={filterOpen}
        onClose={() => setFilterOpen(false)}
        filters={filters}
        onChange={apply}
        onReset={() => apply({})}
      />
    </Box>
  );
}

/** Edit elements of a collection: its series, unfiltered, to remove or reorder. */
function CollectionMembersEditor({
  collection,
  back,
  onDone,
}: {
  collection: CollectionDto;
  back: { to: string; label: string };
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const all = useQuery(seriesQueries.inCollection(collection.id, { unpaged: true }));
  const reorder = useReorderCollection();
  return (
    <MembersEditor
      name={collection.name}
      kind="series"
      ordered={collection.ordered}
      back={back}
      label={t('items.collection.seriesHeading')}
      members={all.data?.content.map((s) => ({
        id: s.id,
        title: s.metadata.title,
        subtitle: s.oneshot ? t('items.series.oneshot') : t('items.series.books', { count: s.booksCount }),
      }))}
      loadError={all.error}
      saving={reorder.isPending}
      save={async (seriesIds) => {
        await reorder.mutateAsync({ id: collection.id, seriesIds });
        // The collection's series are listed under the series keys.
        await qc.invalidateQueries({ queryKey: seriesKeys.all });
      }}
      onDone={onDone}
    />
  );
}
