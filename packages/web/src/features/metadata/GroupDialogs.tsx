import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { useTranslation } from 'react-i18next';
import type { CollectionDto, ReadListDto } from '@quire/api';
import {
  applyPosterChanges,
  hasPosterChanges,
  useAllCollections,
  useAllReadLists,
  useCreateCollection,
  useCreateReadList,
  useInvalidatePosters,
  usePosters,
  useUpdateCollection,
  useUpdateReadList,
  type PosterOwner,
} from '../../api/metadata';
import { ApiError } from '../../api/client';
import { useErrorText, useFullScreenDialog, useToast } from '../../components/dialogs';
import { MetadataDialogLayout, useDialogSession, type DialogTab } from './parts';
import { emptyPosterState, posterChangesOf, PosterEditor, type PosterState } from './PosterEditor';
import { foldName } from './validation';

/** A collection or a read list as the add-to dialog lists it. */
interface Group {
  id: string;
  name: string;
  lastModified: string;
  members: string[];
}

interface AddToGroupTexts {
  title: string;
  search: string;
  exists: string;
  none: string;
  count: (n: number) => string;
  added: (name: string) => string;
  created: (name: string) => string;
}

interface AddToGroupDialogProps {
  open: boolean;
  onClose: () => void;
  groups: Group[] | undefined;
  loading: boolean;
  loadError: unknown;
  texts: AddToGroupTexts;
  create: (name: string) => Promise<unknown>;
  add: (group: Group) => Promise<unknown>;
  onDone: (text: string) => void;
}

/**
 * Add to a collection or read list (ui.md §12.5): one field both searches the existing ones (case- and
 * accent-insensitive) and names a new one; the list shows the most recently modified first.
 */
function AddToGroupDialog(props: AddToGroupDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const errorText = useErrorText();
  const [text, setText] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const query = foldName(text);
  const groups = [...(props.groups ?? [])].sort((a, b) => b.lastModified.localeCompare(a.lastModified));
  const shown = query ? groups.filter((g) => foldName(g.name).includes(query)) : groups;
  const duplicate = !!query && groups.some((g) => foldName(g.name) === query);
  const canCreate = !!text.trim() && !duplicate && !pending;

  const run = async (action: () => Promise<unknown>, done: string) => {
    setPending(true);
    setError(null);
    try {
      await action();
      props.onDone(done);
      props.onClose();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setPending(false);
    }
  };
  const create = (e?: FormEvent) => {
    e?.preventDefault();
    if (!canCreate) return;
    const name = text.trim();
    void run(() => props.create(name), props.texts.created(name));
  };
  const close = () => {
    if (!pending) props.onClose();
  };

  return (
    <Dialog open={props.open} onClose={close} fullScreen={fullScreen} fullWidth maxWidth="xs" scroll="paper">
      <DialogTitle>{props.texts.title}</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 320 }}>
        <Stack component="form" direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} onSubmit={create}>
          <TextField
            autoFocus
            fullWidth
            size="small"
            autoComplete="off"
            label={props.texts.search}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
            error={duplicate}
            helperText={duplicate ? props.texts.exists : undefined}
          />
          <Button
            type="submit"
            variant="contained"
            startIcon={<AddIcon />}
            disabled={!canCreate}
            sx={{ flexShrink: 0 }}
          >
            {t('metadata.groups.create')}
          </Button>
        </Stack>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        {props.loadError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(props.loadError)}
          </Alert>
        ) : props.loading ? (
          <Stack spacing={1} sx={{ mt: 2 }} aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} variant="rounded" height={48} />
            ))}
          </Stack>
        ) : shown.length === 0 ? (
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            {props.texts.none}
          </Typography>
        ) : (
          <List aria-label={props.texts.title} sx={{ mt: 1 }}>
            {shown.map((g) => (
              <ListItemButton
                key={g.id}
                disabled={pending}
                onClick={() => void run(() => props.add(g), props.texts.added(g.name))}
              >
                <ListItemText primary={g.name} secondary={props.texts.count(g.members.length)} />
              </ListItemButton>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={pending}>
          {t('common.cancel')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Members first as they are, then the new ones, each once. */
const union = (current: readonly string[], added: readonly string[]) => [...new Set([...current, ...added])];

export interface AddToCollectionDialogProps {
  open: boolean;
  seriesIds: string[];
  onClose: () => void;
}

export function AddToCollectionDialog({ open, seriesIds, onClose }: AddToCollectionDialogProps) {
  const { t } = useTranslation();
  const session = useDialogSession(open);
  const { toast, show } = useToast();
  const collections = useAllCollections(open);
  const create = useCreateCollection();
  const update = useUpdateCollection();
  return (
    <>
      <AddToGroupDialog
        key={session}
        open={open}
        onClose={onClose}
        groups={collections.data?.map((c) => ({
          id: c.id,
          name: c.name,
          lastModified: c.lastModifiedDate,
          members: c.seriesIds,
        }))}
        loading={collections.isPending}
        loadError={collections.error}
        texts={{
          title: t('metadata.titles.addToCollection'),
          search: t('metadata.collections.search'),
          exists: t('metadata.validation.collectionExists'),
          none: t('metadata.collections.none'),
          count: (count) => t('metadata.collections.seriesCount', { count }),
          added: (name) => t('metadata.collections.added', { name, count: seriesIds.length }),
          created: (name) => t('metadata.collections.created', { name }),
        }}
        create={(name) => create.mutateAsync({ name, ordered: false, seriesIds })}
        add={(g) => update.mutateAsync({ id: g.id, changes: { seriesIds: union(g.members, seriesIds) } })}
        onDone={show}
      />
      {toast}
    </>
  );
}

export interface AddToReadListDialogProps {
  open: boolean;
  bookIds: string[];
  onClose: () => void;
}

export function AddToReadListDialog({ open, bookIds, onClose }: AddToReadListDialogProps) {
  const { t } = useTranslation();
  const session = useDialogSession(open);
  const { toast, show } = useToast();
  const readLists = useAllReadLists(open);
  const create = useCreateReadList();
  const update = useUpdateReadList();
  return (
    <>
      <AddToGroupDialog
        key={session}
        open={open}
        onClose={onClose}
        groups={readLists.data?.map((r) => ({
          id: r.id,
          name: r.name,
          lastModified: r.lastModifiedDate,
          members: r.bookIds,
        }))}
        loading={readLists.isPending}
        loadError={readLists.error}
        texts={{
          title: t('metadata.titles.addToReadList'),
          search: t('metadata.readLists.search'),
          exists: t('metadata.validation.readListExists'),
          none: t('metadata.readLists.none'),
          count: (count) => t('metadata.readLists.booksCount', { count }),
          added: (name) => t('metadata.readLists.added', { name, count: bookIds.length }),
          created: (name) => t('metadata.readLists.created', { name }),
        }}
        create={(name) => create.mutateAsync({ name, summary: '', ordered: true, bookIds })}
        add={(g) => update.mutateAsync({ id: g.id, changes: { bookIds: union(g.members, bookIds) } })}
        onDone={show}
      />
      {toast}
    </>
  );
}

interface GroupValues {
  name: string;
  summary: string;
  ordered: boolean;
}

interface EditGroupFormProps {
  open: boolean;
  owner: Extract<PosterOwner, 'collections' | 'readlists'>;
  id: string;
  initial: GroupValues;
  /** Read lists have a summary; collections do not. */
  withSummary: boolean;
  /** The names of the others, for the uniqueness check. */
  otherNames: string[] | undefined;
  texts: { title: string; exists: string; orderingHint: string; saved: (name: string) => string };
  save: (changes: Partial<GroupValues>) => Promise<unknown>;
  onClose: () => void;
  onSaved: (text: string) => void;
}

/** Edit a collection or a read list (ui.md §12.5): name (required, unique), summary, manual ordering, poster. */
function EditGroupForm(props: EditGroupFormProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const invalidatePosters = useInvalidatePosters();
  const storedPosters = usePosters(props.owner, props.id, false);
  const [values, setValues] = useState(props.initial);
  const [tab, setTab] = useState(0);
  const [posters, setPosters] = useState<PosterState>(emptyPosterState);
  const [pending, setPending] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const name = values.name.trim();
  const duplicate = !!props.otherNames?.some((n) => foldName(n) === foldName(name));
  const clientNameError = !name ? t('common.required') : duplicate ? props.texts.exists : null;
  const shownNameError = nameError ?? clientNameError;
  const set = (patch: Partial<GroupValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setNameError(null);
    setError(null);
  };

  const general: DialogTab = {
    key: 'general',
    label: t('metadata.tabs.general'),
    icon: <InfoOutlinedIcon />,
    invalid: !!shownNameError,
    content: (
      <Stack spacing={2}>
        <TextField
          label={t('metadata.fields.name')}
          required
          autoFocus
          autoComplete="off"
          value={values.name}
          onChange={(e) => set({ name: e.target.value })}
          error={!!shownNameError}
          helperText={shownNameError}
        />
        {props.withSummary && (
          <TextField
            label={t('metadata.fields.summary')}
            multiline
            minRows={4}
            maxRows={12}
            value={values.summary}
            onChange={(e) => set({ summary: e.target.value })}
          />
        )}
        <Box>
          <FormControlLabel
            control={<Checkbox checked={values.ordered} onChange={(e) => set({ ordered: e.target.checked })} />}
            label={t('metadata.fields.manualOrdering')}
          />
          <FormHelperText sx={{ mt: 0 }}>{props.texts.orderingHint}</FormHelperText>
        </Box>
      </Stack>
    ),
  };
  const poster: DialogTab = {
    key: 'poster',
    label: t('metadata.tabs.poster'),
    icon: <ImageOutlinedIcon />,
    content: <PosterEditor owner={props.owner} id={props.id} state={posters} onChange={setPosters} />,
  };

  const save = async () => {
    if (clientNameError) return setTab(0);
    const changes: Partial<GroupValues> = {};
    if (name !== props.initial.name) changes.name = name;
    if (props.withSummary && values.summary !== props.initial.summary) changes.summary = values.summary;
    if (values.ordered !== props.initial.ordered) changes.ordered = values.ordered;
    const posterChanges = posterChangesOf(posters, storedPosters.data ?? []);
    const withPosters = hasPosterChanges(posterChanges);
    if (Object.keys(changes).length === 0 && !withPosters) return props.onClose();
    setPending(true);
    try {
      if (withPosters) {
        try {
          await applyPosterChanges(props.owner, props.id, posterChanges);
        } finally {
          invalidatePosters(props.owner, props.id);
        }
        setPosters(emptyPosterState);
      }
      if (Object.keys(changes).length) await props.save(changes);
      props.onSaved(props.texts.saved(name));
      props.onClose();
    } catch (e) {
      // A name refused by the server (taken meanwhile) goes under the name.
      const aboutName =
        e instanceof ApiError &&
        (/name/i.test(e.message) || /ERR_1009/.test(e.message) || e.violations.some((v) => /name/.test(v.fieldName)));
      if (aboutName) {
        setNameError(errorText(e));
        setTab(0);
      } else setError(errorText(e));
    } finally {
      setPending(false);
    }
  };

  return (
    <MetadataDialogLayout
      open={props.open}
      title={props.texts.title}
      tabs={[general, poster]}
      tab={tab}
      onTabChange={setTab}
      onClose={props.onClose}
      onSave={() => void save()}
      pending={pending}
      saveDisabled={!!clientNameError}
      error={error}
      maxWidth="sm"
      panelHeight={420}
    />
  );
}

export interface EditCollectionDialogProps {
  open: boolean;
  collection: CollectionDto;
  onClose: () => void;
}

export function EditCollectionDialog({ open, collection, onClose }: EditCollectionDialogProps) {
  const { t } = useTranslation();
  const session = useDialogSession(open);
  const { toast, show } = useToast();
  const all = useAllCollections(open);
  const update = useUpdateCollection();
  return (
    <>
      <EditGroupForm
        key={session}
        open={open}
        owner="collections"
        id={collection.id}
        initial={{ name: collection.name, summary: '', ordered: collection.ordered }}
        withSummary={false}
        otherNames={all.data?.filter((c) => c.id !== collection.id).map((c) => c.name)}
        texts={{
          title: t('metadata.titles.editCollection'),
          exists: t('metadata.validation.collectionExists'),
          orderingHint: t('metadata.collections.orderingHint'),
          saved: (name) => t('metadata.toast.collectionSaved', { name }),
        }}
        save={(changes) =>
          update.mutateAsync({ id: collection.id, changes: { name: changes.name, ordered: changes.ordered } })
        }
        onClose={onClose}
        onSaved={show}
      />
      {toast}
    </>
  );
}

export interface EditReadListDialogProps {
  open: boolean;
  readList: ReadListDto;
  onClose: () => void;
}

export function EditReadListDialog({ open, readList, onClose }: EditReadListDialogProps) {
  const { t } = useTranslation();
  const session = useDialogSession(open);
  const { toast, show } = useToast();
  const all = useAllReadLists(open);
  const update = useUpdateReadList();
  return (
    <>
      <EditGroupForm
        key={session}
        open={open}
        owner="readlists"
        id={readList.id}
        initial={{ name: readList.name, summary: readList.summary, ordered: readList.ordered }}
        withSummary
        otherNames={all.data?.filter((r) => r.id !== readList.id).map((r) => r.name)}
        texts={{
          title: t('metadata.titles.editReadList'),
          exists: t('metadata.validation.readListExists'),
          orderingHint: t('metadata.readLists.orderingHint'),
          saved: (name) => t('metadata.toast.readListSaved', { name }),
        }}
        save={(changes) => update.mutateAsync({ id: readList.id, changes })}
        onClose={onClose}
        onSaved={show}
      />
      {toast}
    </>
  );
}
