import { useId, useState } from 'react';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import { useTranslation } from 'react-i18next';
import type { BookDto, MediaStatus } from '@quire/api';
import { useBooks } from '../../api/books';
import { useLibraries } from '../../api/libraries';
import { DataTable, RowAction, sortParam, useTableState, type DataColumn } from '../../components/DataTable';
import { translateServerMessage } from '../../i18n/errorMessage';
import { BookLink, UnavailableChip, useLibraryNames } from './bookColumns';
import { FilePath } from '../../components/FilePath';
import { analysisCondition, DEFAULT_STATUSES, STATUSES } from './conditions';
import { SelectionActions, useAnalysisAction } from './useAnalysisAction';

/**
 * Media analysis (ui.md §13.6): books whose media is not READY, with the analysis' error codes in the user's
 * language; re-analysis of one book, of the selected ones, or of every book the filters select.
 */
export function MediaAnalysisTab() {
  const { t } = useTranslation();
  const headingId = useId();
  const libraryLabelId = useId();
  const [statuses, setStatuses] = useState<readonly MediaStatus[]>(DEFAULT_STATUSES);
  const [libraryIds, setLibraryIds] = useState<string[]>([]);
  const table = useTableState({ property: 'media.status', order: 'asc' });
  const libraries = useLibraries();
  const libraryName = useLibraryNames();
  const condition = analysisCondition(statuses, libraryIds);
  const books = useBooks({ condition, page: table.page, size: table.size, sort: [sortParam(table.sort)] });
  const analysis = useAnalysisAction(condition, 'media.analysisQueued', () => table.setSelected(new Set()));

  const toggleStatus = (status: MediaStatus) => {
    const next = statuses.includes(status) ? statuses.filter((s) => s !== status) : [...statuses, status];
    if (next.length === 0) return; // at least one status (ui.md §13.6)
    setStatuses(next);
    table.restart();
  };

  const columns: DataColumn<BookDto>[] = [
    { key: 'library', label: t('media.columns.library'), render: (b) => libraryName(b.libraryId) },
    {
      key: 'name',
      label: t('media.columns.name'),
      sort: 'name',
      render: (b) => <BookLink book={b} />,
      sx: { minWidth: 140 },
    },
    {
      key: 'status',
      label: t('media.columns.status'),
      sort: 'media.status',
      render: (b) => t(`library.filters.mediaStatuses.${b.media.status}`, { defaultValue: b.media.status }),
    },
    {
      key: 'comment',
      label: t('media.columns.comment'),
      sort: 'media.comment',
      render: (b) => translateServerMessage(t, b.media.comment),
      sx: { minWidth: 200 },
    },
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
    {
      key: 'size',
      label: t('media.columns.size'),
      sort: 'fileSize',
      render: (b) => b.size,
      sx: { whiteSpace: 'nowrap' },
    },
    { key: 'unavailable', label: '', render: (b) => <UnavailableChip book={b} label={t('media.unavailable')} /> },
    {
      key: 'actions',
      label: '',
      render: (b) => (
        <RowAction
          title={t('media.reanalyze')}
          label={t('media.reanalyzeBook', { name: b.metadata.title || b.name })}
          icon={<AutorenewIcon fontSize="small" />}
          onClick={() => analysis.run([b.id])}
        />
      ),
    },
  ];

  const total = books.data?.totalElements ?? 0;
  return (
    <Stack spacing={2}>
      <Typography id={headingId} variant="h6" component="h2">
        {t('media.analysisHeading')}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <Stack
          direction="row"
          spacing={1}
          sx={{ flexWrap: 'wrap', rowGap: 1 }}
          role="group"
          aria-label={t('media.statusFilter')}
        >
          {STATUSES.map((status) => {
            const on = statuses.includes(status);
            return (
              <Chip
                key={status}
                label={t(`library.filters.mediaStatuses.${status}`)}
                color={on ? 'primary' : 'default'}
                variant={on ? 'filled' : 'outlined'}
                onClick={() => toggleStatus(status)}
                aria-pressed={on}
              />
            );
          })}
        </Stack>
        <FormControl size="small" sx={{ minWidth: 220 }}>
          <InputLabel id={libraryLabelId}>{t('media.libraries')}</InputLabel>
          <Select
            labelId={libraryLabelId}
            multiple
            value={libraryIds}
            onChange={(e) => {
              const v = e.target.value;
              setLibraryIds(typeof v === 'string' ? v.split(',') : v);
              table.restart();
            }}
            input={<OutlinedInput label={t('media.libraries')} />}
            renderValue={(ids) => (
              <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
                {ids.map((id) => (
                  <Chip key={id} size="small" label={libraryName(id)} />
                ))}
              </Stack>
            )}
          >
            {(libraries.data ?? []).map((l) => (
              <MenuItem key={l.id} value={l.id}>
                {l.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
      <SelectionActions
        icon={<AutorenewIcon />}
        selectedLabel={t('media.reanalyzeSelected', { count: table.selected.size })}
        allLabel={t('media.reanalyzeAll', { count: total })}
        selected={table.selected}
        total={total}
        action={analysis}
      />
      <DataTable
        labelledBy={headingId}
        columns={columns}
        query={books}
        rowKey={(b) => b.id}
        {...table.paging}
        empty={t('media.noProblems')}
        selection={{
          selected: table.selected,
          onChange: table.setSelected,
          rowLabel: (b) => t('media.selectBook', { name: b.metadata.title || b.name }),
        }}
      />
    </Stack>
  );
}
