import { useState, type ReactElement } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CompareArrowsIcon from '@mui/icons-material/CompareArrows';
import CompareIcon from '@mui/icons-material/Compare';
import ErrorIcon from '@mui/icons-material/Error';
import ImageIcon from '@mui/icons-material/Image';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import TextFieldsIcon from '@mui/icons-material/TextFields';
import WarningIcon from '@mui/icons-material/Warning';
import { useTranslation } from 'react-i18next';
import type { BookDto, SeriesDto } from '@quire/api';
import { pageUrl } from '../../api/reader';
import { transientPageUrl } from '../../api/transient-books';
import { translateServerMessage } from '../../i18n/errorMessage';
import { CompareDialog } from './CompareDialog';
import { DestinationNameDialog } from './DestinationNameDialog';
import { PageViewerDialog, type ViewedBook } from './PageViewerDialog';
import type { ImportRow, RowProblem } from './rows';
import { SeriesPickerDialog } from '../../components/SeriesPickerDialog';

export interface ImportRowViewProps {
  row: ImportRow;
  /** The chosen series, once loaded. */
  series?: SeriesDto;
  /** The chosen series' books in number order, once loaded. */
  seriesBooks?: readonly BookDto[];
  upgrade?: BookDto;
  problem?: RowProblem;
  onChange: (patch: Partial<ImportRow>) => void;
}

type OpenDialog = 'series' | 'compare' | 'viewer' | 'destination' | null;

function Status({ row }: { row: ImportRow }) {
  const { t } = useTranslation();
  if (row.analysis === 'pending') return <CircularProgress size={20} aria-label={t('importBooks.status.analyzing')} />;
  const ready = row.analysis === 'done' && row.book.status === 'READY';
  if (ready) return <CheckCircleIcon color="success" titleAccess={t('importBooks.status.ready')} />;
  const comment = row.analysis === 'failed' ? row.error : row.book.comment;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <WarningIcon color="error" titleAccess={t('importBooks.status.error')} />
      {comment && (
        <Typography variant="caption" color="error">
          {translateServerMessage(t, comment)}
        </Typography>
      )}
    </Stack>
  );
}

function ProblemIcon({ problem }: { problem?: RowProblem }) {
  const { t } = useTranslation();
  if (!problem) return null;
  const text = t(`importBooks.problems.${problem}`);
  const Icon = problem === 'upgrade' ? WarningIcon : ErrorIcon;
  return (
    <Tooltip title={text}>
      <Icon color={problem === 'upgrade' ? 'warning' : 'error'} titleAccess={text} tabIndex={0} />
    </Tooltip>
  );
}

/** An icon button of a row, its action as tooltip, named after the action and the file for screen readers. */
function RowButton(props: {
  title: string;
  file: string;
  icon: ReactElement;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip title={props.title}>
      {/* A disabled button gets no pointer events: the span still shows the tooltip. */}
      <span>
        <IconButton disabled={props.disabled} onClick={props.onClick} aria-label={`${props.title}: ${props.file}`}>
          {props.icon}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** One scanned file of the import table (ui.md §13.8) with its series picker, compare, viewer and naming dialogs. */
export function ImportRowView({ row, series, seriesBooks, upgrade, problem, onChange }: ImportRowViewProps) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const close = () => setDialog(null);
  const { book } = row;
  const analysed = row.analysis === 'done';
  const seriesLoading = !!row.seriesId && !series;

  const viewed: ViewedBook[] = [
    { label: book.name, pageCount: book.pages.length, pageUrl: (n) => transientPageUrl(book.id, n) },
  ];
  if (upgrade) {
    viewed.push({
      label: upgrade.name,
      pageCount: upgrade.media.pagesCount,
      pageUrl: (n) => pageUrl(upgrade.id, n),
    });
  }

  return (
    <TableRow hover selected={row.selected}>
      <TableCell padding="checkbox">
        <Checkbox
          checked={row.selected}
          onChange={(e) => onChange({ selected: e.target.checked })}
          slotProps={{ input: { 'aria-label': t('importBooks.table.select', { file: book.name }) } }}
        />
      </TableCell>
      <TableCell dir="auto" sx={{ wordBreak: 'break-all', minWidth: 160 }}>
        {book.name}
      </TableCell>
      <TableCell sx={{ minWidth: 120 }}>
        <Status row={row} />
      </TableCell>
      <TableCell sx={{ minWidth: 180 }}>
        {seriesLoading ? (
          <Skeleton width={140} />
        ) : (
          <ButtonBase
            onClick={() => setDialog('series')}
            aria-label={t('importBooks.table.chooseSeriesFor', { file: book.name })}
            sx={{
              justifyContent: 'flex-start',
              textAlign: 'start',
              px: 1,
              py: 0.5,
              minHeight: 32,
              width: '100%',
              borderRadius: 1,
              border: series ? '1px solid transparent' : '1px dashed',
              borderColor: series ? 'transparent' : 'error.main',
              '&:hover, &.Mui-focusVisible': { bgcolor: 'action.hover' },
            }}
          >
            <Typography variant="body2" dir="auto" color={series ? 'text.primary' : 'error'}>
              {series ? series.metadata.title : t('importBooks.table.noSeries')}
            </Typography>
          </ButtonBase>
        )}
      </TableCell>
      <TableCell sx={{ minWidth: 110 }}>
        {series?.oneshot ? (
          <Typography variant="body2">
            {t('importBooks.table.oneshot', { number: upgrade?.metadata.number ?? '' })}
          </Typography>
        ) : (
          <TextField
            type="number"
            size="small"
            value={row.number ?? ''}
            disabled={!row.seriesId}
            onChange={(e) => onChange({ number: e.target.value === '' ? undefined : Number(e.target.value) })}
            slotProps={{ htmlInput: { step: 0.1, 'aria-label': t('importBooks.table.numberOf', { file: book.name }) } }}
            sx={{ width: 96 }}
          />
        )}
      </TableCell>
      <TableCell>
        <Box sx={{ display: 'flex', flexWrap: 'nowrap' }}>
          <RowButton
            title={upgrade ? t('importBooks.actions.compare') : t('importBooks.actions.details')}
            file={book.name}
            icon={upgrade ? <CompareArrowsIcon /> : <InfoOutlinedIcon />}
            disabled={!analysed}
            onClick={() => setDialog('compare')}
          />
          <RowButton
            title={upgrade ? t('importBooks.actions.viewBoth') : t('importBooks.actions.view')}
            file={book.name}
            icon={upgrade ? <CompareIcon /> : <ImageIcon />}
            disabled={!analysed || book.pages.length === 0}
            onClick={() => setDialog('viewer')}
          />
          <RowButton
            title={t('importBooks.actions.destination')}
            file={book.name}
            icon={<TextFieldsIcon />}
            onClick={() => setDialog('destination')}
          />
        </Box>
      </TableCell>
      <TableCell dir="auto" sx={{ wordBreak: 'break-all', minWidth: 120 }}>
        {row.destinationName}
      </TableCell>
      <TableCell>
        <ProblemIcon problem={problem} />
      </TableCell>
      {dialog === 'series' && (
        <SeriesPickerDialog
          open
          title={t('importBooks.seriesPicker.title')}
          initialSearch={series?.metadata.title ?? ''}
          onClose={close}
          onSelect={(s) => {
            onChange({ seriesId: s.id });
            close();
          }}
        />
      )}
      {dialog === 'compare' && <CompareDialog open candidate={book} existing={upgrade} onClose={close} />}
      {dialog === 'viewer' && <PageViewerDialog open books={viewed} onClose={close} />}
      {dialog === 'destination' && (
        <DestinationNameDialog
          open
          sourceName={book.name}
          initialName={row.destinationName}
          seriesBooks={seriesBooks ?? []}
          onClose={close}
          onChoose={(destinationName) => {
            onChange({ destinationName });
            close();
          }}
        />
      )}
    </TableRow>
  );
}
