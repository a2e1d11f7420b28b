import { useState } from 'react';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { PageHashAction } from '@quire/api/constants';
import { unknownThumbnailUrl, useDecidePageHashes, useUnknownPageHashes } from '../../api/page-hashes';
import { setPreference, usePreferences } from '../../app/preferences';
import { ErrorState } from '../../components/ErrorState';
import { ConfirmDialog, useErrorText } from '../../components/dialogs';
import { ACTIONS, BackupWarning, PageHashCard } from './shared';

const PAGE_SIZES = [1, 2, 5, 10, 20, 50];
const SORTS = ['totalSize', 'fileSize', 'matchCount'] as const;
/** The page image of a card: a 500 px rendering of the first page holding the hash. */
const IMAGE_EDGE = 500;

/**
 * New duplicates (ui.md §13.7): hashes several pages share that nobody decided on, largest saving first; a card
 * leaves the list once decided. The footer applies one decision to every hash left on the page (deletions confirmed).
 */
export function UnknownDuplicatesTab() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const size = usePreferences((p) => p.duplicatesNewPageSize);
  const [sort, setSort] = useState<(typeof SORTS)[number]>('totalSize');
  const [page, setPage] = useState(0);
  const [confirm, setConfirm] = useState<PageHashAction | null>(null);
  const unknown = useUnknownPageHashes({ page, size, sort: [`${sort},desc`] });
  const decide = useDecidePageHashes();
  const remaining = unknown.data?.content ?? [];
  // Automatic deletion needs a size: hashes without one are left out of "auto delete remaining".
  const applicable = (action: PageHashAction) =>
    remaining.filter((h) => action !== 'DELETE_AUTO' || h.size !== undefined);
  const applyToRemaining = (action: PageHashAction) =>
    decide.mutate(
      applicable(action).map((h) => ({ hash: h.hash, action, ...(h.size === undefined ? {} : { size: h.size }) })),
      { onSettled: () => setConfirm(null) },
    );

  return (
    <Stack spacing={2}>
      <BackupWarning />
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <FormControl size="small" sx={{ minWidth: 160 }}>
          <InputLabel id="unknown-sort">{t('duplicates.sortBy')}</InputLabel>
          <Select
            labelId="unknown-sort"
            label={t('duplicates.sortBy')}
            value={sort}
            onChange={(e) => {
              setSort(e.target.value as (typeof SORTS)[number]);
              setPage(0);
            }}
          >
            {SORTS.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`duplicates.sorts.${s}`)}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl size="small" sx={{ minWidth: 120 }}>
          <InputLabel id="unknown-size">{t('duplicates.perPage')}</InputLabel>
          <Select
            labelId="unknown-size"
            label={t('duplicates.perPage')}
            value={size}
            onChange={(e) => {
              setPreference('duplicatesNewPageSize', Number(e.target.value));
              setPage(0);
            }}
          >
            {PAGE_SIZES.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        {unknown.data && unknown.data.totalPages > 1 && (
          <Pagination
            count={unknown.data.totalPages}
            page={page + 1}
            onChange={(_, p) => setPage(p - 1)}
            aria-label={t('duplicates.pages')}
          />
        )}
      </Stack>
      {decide.isError && (
        <Typography role="alert" color="error">
          {errorText(decide.error)}
        </Typography>
      )}
      {unknown.isError ? (
        <ErrorState error={unknown.error} onRetry={() => void unknown.refetch()} />
      ) : unknown.data?.content.length === 0 ? (
        <Typography>{t('duplicates.noUnknown')}</Typography>
      ) : (
        <>
          <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {remaining.map((h) => (
              <PageHashCard
                key={h.hash}
                hash={h.hash}
                imageUrl={unknownThumbnailUrl(h.hash, IMAGE_EDGE)}
                size={h.size}
                matchCount={h.matchCount}
                pending={decide.isPending}
                onDecide={(action) =>
                  decide.mutate([{ hash: h.hash, action, ...(h.size === undefined ? {} : { size: h.size }) }])
                }
              />
            ))}
          </Stack>
          {remaining.length > 0 && (
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {ACTIONS.map((action) => (
                <Button
                  key={action}
                  variant="outlined"
                  color={action === 'IGNORE' ? 'primary' : 'error'}
                  disabled={decide.isPending || applicable(action).length === 0}
                  onClick={() => (action === 'IGNORE' ? applyToRemaining(action) : setConfirm(action))}
                >
                  {t(`duplicates.remaining.${action}`, { count: applicable(action).length })}
                </Button>
              ))}
            </Stack>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={t('duplicates.confirmTitle')}
        danger
        confirmLabel={confirm ? t(`duplicates.remaining.${confirm}`, { count: applicable(confirm).length }) : ''}
        pending={decide.isPending}
        error={decide.isError ? errorText(decide.error) : null}
        onConfirm={() => confirm && applyToRemaining(confirm)}
        onClose={() => setConfirm(null)}
      >
        <Typography>{confirm && t(`duplicates.confirm.${confirm}`, { count: applicable(confirm).length })}</Typography>
      </ConfirmDialog>
    </Stack>
  );
}
