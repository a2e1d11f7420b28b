import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';
import type { PageHashAction } from '@quire/api/constants';
import {
  knownThumbnailUrl,
  useDecidePageHashes,
  useDeleteAllMatches,
  useKnownPageHashes,
  type PageHashKnownDto,
} from '../../api/page-hashes';
import { ErrorState } from '../../components/ErrorState';
import { useErrorText } from '../../components/dialogs';
import { useFileSizeFormat } from '../../i18n/format';
import { ACTIONS, BackupWarning, PageHashCard } from './shared';

const PAGE_SIZE = 20;
const SORTS = ['deleteSize', 'fileSize', 'deleteCount', 'matchCount', 'createdDate', 'lastModifiedDate'] as const;
type SortProperty = (typeof SORTS)[number];

/**
 * Known duplicates (ui.md §13.7): the hashes an administrator decided on, filtered by action (automatic and manual
 * deletion at first), sorted by one of six figures; each card can change its action, list its matches and, for
 * manual deletion, delete them all.
 */
export function KnownDuplicatesTab() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const formatSize = useFileSizeFormat();
  const [actions, setActions] = useState<PageHashAction[]>(['DELETE_AUTO', 'DELETE_MANUAL']);
  const [sort, setSort] = useState<{ property: SortProperty; order: 'asc' | 'desc' }>({
    property: 'deleteSize',
    order: 'desc',
  });
  const [page, setPage] = useState(0);
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(new Set());
  const known = useKnownPageHashes({
    action: actions,
    page,
    size: PAGE_SIZE,
    sort: [`${sort.property},${sort.order}`],
  });
  const decide = useDecidePageHashes();
  const deleteAll = useDeleteAllMatches();

  const toggleAction = (action: PageHashAction) => {
    const next = actions.includes(action) ? actions.filter((a) => a !== action) : [...actions, action];
    if (next.length === 0) return; // at least one
    setActions(next);
    setPage(0);
  };
  const sortBy = (property: SortProperty) => {
    setSort((s) =>
      s.property === property ? { property, order: s.order === 'asc' ? 'desc' : 'asc' } : { property, order: 'desc' },
    );
    setPage(0);
  };

  const details = (h: PageHashKnownDto) => (
    <>
      <Typography variant="body2">{t('duplicates.deletedTimes', { count: h.deleteCount })}</Typography>
      {h.size !== undefined && (
        <Typography variant="body2">{t('duplicates.saved', { size: formatSize(h.size * h.deleteCount) })}</Typography>
      )}
    </>
  );

  return (
    <Stack spacing={2}>
      <BackupWarning />
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap' }}
        role="group"
        aria-label={t('duplicates.filterByAction')}
      >
        {ACTIONS.map((action) => (
          <Chip
            key={action}
            label={t(`duplicates.actions.${action}`)}
            color={actions.includes(action) ? 'primary' : 'default'}
            variant={actions.includes(action) ? 'filled' : 'outlined'}
            aria-pressed={actions.includes(action)}
            onClick={() => toggleAction(action)}
          />
        ))}
      </Stack>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap' }}
        role="group"
        aria-label={t('duplicates.sortBy')}
      >
        {SORTS.map((property) => {
          const active = sort.property === property;
          return (
            <Button
              key={property}
              size="small"
              variant={active ? 'contained' : 'outlined'}
              sx={{ borderRadius: 4 }}
              aria-pressed={active}
              endIcon={active ? sort.order === 'asc' ? <ArrowUpwardIcon /> : <ArrowDownwardIcon /> : undefined}
              onClick={() => sortBy(property)}
            >
              {t(`duplicates.sorts.${property}`)}
            </Button>
          );
        })}
      </Stack>
      {known.data && known.data.totalPages > 1 && (
        <Pagination
          count={known.data.totalPages}
          page={page + 1}
          onChange={(_, p) => setPage(p - 1)}
          aria-label={t('duplicates.pages')}
        />
      )}
      {(decide.isError || deleteAll.isError) && (
        <Typography role="alert" color="error">
          {errorText(decide.error ?? deleteAll.error)}
        </Typography>
      )}
      {known.isError ? (
        <ErrorState error={known.error} onRetry={() => void known.refetch()} />
      ) : known.data?.content.length === 0 ? (
        <Typography>{t('duplicates.noKnown')}</Typography>
      ) : (
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {known.data?.content.map((h) => (
            <PageHashCard
              key={h.hash}
              hash={h.hash}
              imageUrl={knownThumbnailUrl(h.hash)}
              size={h.size}
              matchCount={h.matchCount}
              current={h.action}
              details={details(h)}
              pending={decide.isPending}
              onDecide={(action) =>
                decide.mutate([{ hash: h.hash, action, ...(h.size === undefined ? {} : { size: h.size }) }])
              }
              extraAction={
                h.action === 'DELETE_MANUAL' &&
                h.matchCount > 0 && (
                  <Button
                    size="small"
                    color="error"
                    variant="contained"
                    disabled={deleted.has(h.hash) || deleteAll.isPending}
                    startIcon={deleted.has(h.hash) ? <CheckIcon /> : undefined}
                    onClick={() =>
                      deleteAll.mutate(h.hash, { onSuccess: () => setDeleted((d) => new Set(d).add(h.hash)) })
                    }
                  >
                    {t('duplicates.deleteMatches')}
                  </Button>
                )
              }
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
