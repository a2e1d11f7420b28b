import { useEffect, useId, useRef, useState, type DragEvent, type ReactElement } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Alert from '@mui/material/Alert';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import CloudDoneOutlinedIcon from '@mui/icons-material/CloudDoneOutlined';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import DeleteIcon from '@mui/icons-material/Delete';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import ErrorIcon from '@mui/icons-material/Error';
import FileUploadIcon from '@mui/icons-material/FileUpload';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import { useTranslation } from 'react-i18next';
import { useFileSizeFormat } from '../../i18n/format';
import { MAX_THUMBNAIL_UPLOAD_BYTES } from '@quire/api/constants';
import { posterUrl, usePosters, type PosterChanges, type PosterDto, type PosterOwner } from '../../api/metadata';
import { useErrorText } from '../../components/dialogs';

/** A file chosen in the dialog, not uploaded before Save. */
export interface QueuedPoster {
  key: string;
  file: File;
}

export interface PosterState {
  queued: QueuedPoster[];
  /** The poster to show: a queued key or an existing id; null leaves the current one. */
  selected: string | null;
  /** Existing uploaded posters marked "To be deleted". */
  removed: string[];
}

export const emptyPosterState: PosterState = { queued: [], selected: null, removed: [] };

export const isTooBig = (file: File) => file.size > MAX_THUMBNAIL_UPLOAD_BYTES;

let queuedCounter = 0;

/** Adds files to the queue; the first one that can be used becomes the selected poster (ui.md §12.7). */
export function queueFiles(state: PosterState, files: File[]): PosterState {
  const added = files
    .filter((f) => f.type.startsWith('image/'))
    .map((file) => ({ key: `queued-${++queuedCounter}`, file }));
  const firstUsable = added.find((q) => !isTooBig(q.file));
  return { ...state, queued: [...state.queued, ...added], selected: firstUsable?.key ?? state.selected };
}

/** What Save sends: usable queued files (with the selection), the chosen existing poster, the removals. */
export function posterChangesOf(state: PosterState, existing: readonly PosterDto[]): PosterChanges {
  const uploads = state.queued
    .filter((q) => !isTooBig(q.file))
    .map((q) => ({ file: q.file, selected: state.selected === q.key }));
  const chosen = existing.find((p) => p.id === state.selected);
  return {
    uploads,
    select: chosen && !chosen.selected ? chosen.id : null,
    remove: state.removed.filter((id) => existing.some((p) => p.id === id)),
  };
}

function useObjectUrl(file: File): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (typeof URL.createObjectURL !== 'function') return;
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return url;
}

export interface PosterEditorProps {
  owner: PosterOwner;
  id: string;
  state: PosterState;
  onChange: (state: PosterState) => void;
}

/**
 * The poster tab (ui.md §12.7): a drop zone, then queued files and the stored posters. A card offers "Mark as
 * selected" and, for queued and uploaded posters only, "Delete". Nothing is sent before Save.
 */
export function PosterEditor({ owner, id, state, onChange }: PosterEditorProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const posters = usePosters(owner, id);
  const inputId = useId();
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const existing = posters.data ?? [];
  const shownSelected = state.selected ?? existing.find((p) => p.selected)?.id ?? null;

  const add = (files: FileList | null) => {
    if (!files?.length) return;
    onChange(queueFiles(state, [...files]));
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    add(e.dataTransfer.files);
  };
  const select = (key: string) => onChange({ ...state, selected: key });
  const dropQueued = (key: string) =>
    onChange({
      ...state,
      queued: state.queued.filter((q) => q.key !== key),
      selected: state.selected === key ? null : state.selected,
    });
  const toggleRemoved = (posterId: string) => {
    const removed = state.removed.includes(posterId)
      ? state.removed.filter((r) => r !== posterId)
      : [...state.removed, posterId];
    onChange({ ...state, removed, selected: state.selected === posterId ? null : state.selected });
  };

  return (
    <Stack spacing={2}>
      <Box
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          borderRadius: 1,
          p: 3,
          textAlign: 'center',
          bgcolor: dragging ? 'action.hover' : undefined,
        }}
      >
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept="image/*"
          multiple
          hidden
          onChange={(e) => {
            add(e.target.files);
            e.target.value = '';
          }}
        />
        <Button variant="outlined" startIcon={<FileUploadIcon />} onClick={() => inputRef.current?.click()}>
          {t('metadata.poster.choose')}
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('metadata.poster.drop')}
        </Typography>
      </Box>
      {posters.isError && <Alert severity="error">{errorText(posters.error)}</Alert>}
      <Box
        role="list"
        aria-label={t('metadata.tabs.poster')}
        sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))', gap: 2 }}
      >
        {state.queued.map((q, i) => (
          <QueuedCard
            key={q.key}
            poster={q}
            index={i}
            selected={shownSelected === q.key}
            onSelect={() => select(q.key)}
            onDelete={() => dropQueued(q.key)}
          />
        ))}
        {posters.isPending &&
          [0, 1].map((i) => (
            <Box key={i} role="listitem">
              <Skeleton variant="rectangular" sx={{ aspectRatio: '0.7', height: 'auto', borderRadius: 1 }} />
            </Box>
          ))}
        {existing.map((p, i) => (
          <StoredCard
            key={p.id}
            poster={p}
            index={state.queued.length + i}
            src={posterUrl(owner, id, p.id)}
            selected={shownSelected === p.id}
            removed={state.removed.includes(p.id)}
            onSelect={() => select(p.id)}
            onToggleRemove={() => toggleRemoved(p.id)}
          />
        ))}
      </Box>
      {posters.isSuccess && existing.length === 0 && state.queued.length === 0 && (
        <Typography color="text.secondary">{t('metadata.poster.empty')}</Typography>
      )}
    </Stack>
  );
}

interface CardFrameProps {
  index: number;
  src: string | null;
  typeIcon: ReactElement;
  typeLabel: string;
  caption: string;
  selected: boolean;
  canSelect: boolean;
  onSelect: () => void;
  deleteState?: 'delete' | 'toBeDeleted';
  onDelete?: () => void;
}

function PosterCard(props: CardFrameProps) {
  const { t } = useTranslation();
  const name = t('metadata.poster.poster', { n: props.index + 1 });
  return (
    <Card
      role="listitem"
      aria-label={name}
      variant="outlined"
      sx={{
        borderColor: props.selected ? 'success.main' : undefined,
        borderWidth: props.selected ? 2 : 1,
        opacity: props.deleteState === 'toBeDeleted' ? 0.5 : 1,
      }}
    >
      <Box sx={{ aspectRatio: '0.7', bgcolor: 'action.hover', display: 'flex' }}>
        {props.src && (
          <Box
            component="img"
            src={props.src}
            alt={name}
            loading="lazy"
            sx={{ width: '100%', height: '100%', objectFit: 'contain' }}
          />
        )}
      </Box>
      <CardContent sx={{ p: 1, '&:last-child': { pb: 1 } }}>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <Tooltip title={props.typeLabel}>
            <Box component="span" aria-label={props.typeLabel} role="img" sx={{ display: 'inline-flex' }}>
              {props.typeIcon}
            </Box>
          </Tooltip>
          <Typography variant="caption" color="text.secondary" sx={{ direction: 'ltr' }}>
            {props.caption}
          </Typography>
        </Stack>
      </CardContent>
      <CardActions sx={{ pt: 0, justifyContent: 'space-between' }}>
        <Tooltip title={props.selected ? t('metadata.poster.selected') : t('metadata.poster.select')}>
          <span>
            <IconButton
              aria-label={props.selected ? t('metadata.poster.selected') : t('metadata.poster.select')}
              aria-pressed={props.selected}
              disabled={!props.canSelect}
              color={props.selected ? 'success' : 'default'}
              onClick={props.onSelect}
            >
              {props.selected ? <CheckCircleIcon /> : <CheckCircleOutlineIcon />}
            </IconButton>
          </span>
        </Tooltip>
        {props.deleteState && props.onDelete && (
          <Tooltip
            title={props.deleteState === 'toBeDeleted' ? t('metadata.poster.toBeDeleted') : t('metadata.poster.delete')}
          >
            <IconButton
              aria-label={
                props.deleteState === 'toBeDeleted' ? t('metadata.poster.toBeDeleted') : t('metadata.poster.delete')
              }
              aria-pressed={props.deleteState === 'toBeDeleted'}
              color={props.deleteState === 'toBeDeleted' ? 'error' : 'default'}
              onClick={props.onDelete}
            >
              {props.deleteState === 'toBeDeleted' ? <DeleteForeverIcon /> : <DeleteIcon />}
            </IconButton>
          </Tooltip>
        )}
      </CardActions>
    </Card>
  );
}

function QueuedCard(props: {
  poster: QueuedPoster;
  index: number;
  selected: boolean;
  onSelect: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const size = useFileSizeFormat();
  const src = useObjectUrl(props.poster.file);
  const tooBig = isTooBig(props.poster.file);
  return (
    <PosterCard
      index={props.index}
      src={src}
      typeIcon={tooBig ? <ErrorIcon color="error" fontSize="small" /> : <CloudUploadOutlinedIcon fontSize="small" />}
      typeLabel={tooBig ? t('metadata.poster.tooBig') : t('metadata.poster.types.queued')}
      caption={size(props.poster.file.size)}
      selected={props.selected && !tooBig}
      canSelect={!tooBig}
      onSelect={props.onSelect}
      deleteState="delete"
      onDelete={props.onDelete}
    />
  );
}

const TYPE_ICONS: Record<string, ReactElement> = {
  SIDECAR: <FolderOutlinedIcon fontSize="small" />,
  GENERATED: <InsertDriveFileOutlinedIcon fontSize="small" />,
  USER_UPLOADED: <CloudDoneOutlinedIcon fontSize="small" />,
};

function StoredCard(props: {
  poster: PosterDto;
  index: number;
  src: string;
  selected: boolean;
  removed: boolean;
  onSelect: () => void;
  onToggleRemove: () => void;
}) {
  const { t } = useTranslation();
  const size = useFileSizeFormat();
  const { poster } = props;
  const typeKey = (['SIDECAR', 'GENERATED', 'USER_UPLOADED'] as const).find((k) => k === poster.type) ?? 'GENERATED';
  return (
    <PosterCard
      index={props.index}
      src={props.src}
      typeIcon={TYPE_ICONS[typeKey]!}
      typeLabel={t(`metadata.poster.types.${typeKey}`)}
      caption={`${t('metadata.poster.dimensions', { width: poster.width, height: poster.height })} · ${size(poster.fileSize)}`}
      selected={props.selected}
      canSelect={!props.removed}
      onSelect={props.onSelect}
      deleteState={poster.type === 'USER_UPLOADED' ? (props.removed ? 'toBeDeleted' : 'delete') : undefined}
      onDelete={props.onToggleRemove}
    />
  );
}
