import { useId, useState, type FormEvent, type ReactElement, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import BookIcon from '@mui/icons-material/Book';
import FolderOpenIcon from '@mui/icons-material/FolderOpen';
import SearchIcon from '@mui/icons-material/Search';
import ShelvesIcon from '@mui/icons-material/Shelves';
import TuneIcon from '@mui/icons-material/Tune';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import {
  SCAN_INTERVALS,
  SERIES_COVERS,
  useCreateLibrary,
  useLibraries,
  useUpdateLibrary,
  type LibraryDto,
  type LibraryOptions,
  type ScanInterval,
  type SeriesCover,
} from '../../api/libraries';
import { errorText } from '../../i18n/errorMessage';
import { useFullScreenDialog } from '../../components/dialogs';
import { FolderBrowserDialog } from './FolderBrowserDialog';
import {
  cleanExclusions,
  creationBody,
  libraryFormOf,
  newLibraryForm,
  updateChanges,
  validateLibrary,
  type LibraryFieldError,
  type LibraryForm,
} from './library-form';

export interface LibraryDialogProps {
  open: boolean;
  /** The library to edit; absent to add one. */
  library?: LibraryDto;
  onClose: () => void;
  /** After the server accepted: the library's name, and whether it was created. */
  onSaved: (name: string, created: boolean) => void;
}

type BooleanOption = {
  [K in keyof LibraryOptions]: LibraryOptions[K] extends boolean ? K : never;
}[keyof LibraryOptions];

const TABS = ['general', 'scanner', 'options', 'metadata'] as const;
const TAB_ICONS: Record<(typeof TABS)[number], ReactElement> = {
  general: <ShelvesIcon />,
  scanner: <SearchIcon />,
  options: <TuneIcon />,
  metadata: <BookIcon />,
};

/** Root-folder problems the server reports (not a directory, inside or around another library). */
const ROOT_ERROR = /ERR_101[67]/;

/**
 * Add or edit a library (ui.md §12.6): 700 px, four tabs (vertical from sm up), full screen on phones. Adding walks
 * the tabs with *Next* and can add from any tab; a validation failure jumps back to General. Editing sends only the
 * fields that changed.
 */
export function LibraryDialog({ open, library, onClose, onSaved }: LibraryDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useFullScreenDialog();
  const vertical = useMediaQuery(theme.breakpoints.up('sm'));
  const baseId = useId();
  const libraries = useLibraries();
  const create = useCreateLibrary();
  const update = useUpdateLibrary();
  const mutation = library ? update : create;
  const [initial] = useState<LibraryForm>(() => (library ? libraryFormOf(library) : newLibraryForm()));
  const [form, setForm] = useState<LibraryForm>(initial);
  const [tab, setTab] = useState(0);
  const [submitted, setSubmitted] = useState(false);
  const [browsing, setBrowsing] = useState(false);

  const others = (libraries.data ?? []).filter((l) => l.id !== library?.id);
  const errors = validateLibrary(form, others);
  const fieldMessage = (e: LibraryFieldError | undefined) => {
    if (e === 'duplicate') return t('libraries.form.nameExists');
    if (e === 'required' && submitted) return t('common.required');
    return undefined;
  };
  const serverError = mutation.isError ? errorText(t, mutation.error) : null;
  const rootServerError =
    mutation.error instanceof ApiError && ROOT_ERROR.test(mutation.error.message) ? serverError : null;

  const set = (patch: Partial<LibraryForm>) => {
    if (mutation.isError) mutation.reset();
    setForm((f) => ({ ...f, ...patch }));
  };
  const close = () => {
    if (!mutation.isPending) onClose();
  };
  const valid = !errors.name && !errors.root;

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    setSubmitted(true);
    if (!valid) {
      setTab(0);
      return;
    }
    if (library) {
      const changes = updateChanges(initial, form);
      if (Object.keys(changes).length === 0) {
        onClose();
        return;
      }
      update.mutate(
        { id: library.id, changes },
        { onSuccess: () => onSaved(form.name.trim(), false), onError: onServerError },
      );
    } else {
      const body = creationBody(form);
      create.mutate(body, {
        onSuccess: (created) => onSaved(created?.name ?? body.name, true),
        onError: onServerError,
      });
    }
  };
  function onServerError(error: unknown) {
    if (error instanceof ApiError && ROOT_ERROR.test(error.message)) setTab(0);
  }
  const next = () => {
    if (tab === 0 && !valid) {
      setSubmitted(true);
      return;
    }
    setTab((i) => Math.min(i + 1, TABS.length - 1));
  };

  const check = (key: BooleanOption, label: string, helper?: string) => (
    <CheckboxField key={key} label={label} helper={helper} checked={form[key]} onChange={(v) => set({ [key]: v })} />
  );
  const group = (label: string, items: [BooleanOption, string][], helper?: string) => (
    <CheckboxGroup
      label={label}
      helper={helper}
      items={items.map(([key, itemLabel]) => ({ key, label: itemLabel, checked: form[key] }))}
      onChange={(changes) => set(changes)}
    />
  );
  const resourceWarning = t('libraries.form.resourceWarning');

  const panels: Record<(typeof TABS)[number], ReactNode> = {
    general: (
      <Stack spacing={2}>
        <TextField
          label={t('libraries.form.name')}
          required
          autoFocus
          autoComplete="off"
          value={form.name}
          onChange={(e) => set({ name: e.target.value })}
          error={!!fieldMessage(errors.name)}
          helperText={fieldMessage(errors.name)}
        />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            label={t('libraries.form.root')}
            required
            fullWidth
            autoComplete="off"
            value={form.root}
            onChange={(e) => set({ root: e.target.value })}
            error={!!fieldMessage(errors.root) || !!rootServerError}
            helperText={fieldMessage(errors.root) ?? rootServerError}
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          <Button
            variant="outlined"
            startIcon={<FolderOpenIcon />}
            onClick={() => setBrowsing(true)}
            sx={{ flexShrink: 0, height: 56 }}
          >
            {t('libraries.form.browse')}
          </Button>
        </Stack>
      </Stack>
    ),
    scanner: (
      <Stack spacing={2}>
        <FormGroup>
          {check('emptyTrashAfterScan', t('libraries.form.emptyTrashAfterScan'))}
          {check(
            'scanForceModifiedTime',
            t('libraries.form.scanForceModifiedTime'),
            t('libraries.form.scanForceModifiedTimeHint'),
          )}
          {check('scanOnStartup', t('libraries.form.scanOnStartup'))}
        </FormGroup>
        <TextField
          select
          label={t('libraries.form.scanInterval')}
          value={form.scanInterval}
          onChange={(e) => set({ scanInterval: e.target.value as ScanInterval })}
        >
          {SCAN_INTERVALS.map((interval) => (
            <MenuItem key={interval} value={interval}>
              {t(`libraries.scanInterval.${interval}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label={t('libraries.form.oneshotsDirectory')}
          helperText={t('libraries.form.oneshotsDirectoryHint')}
          autoComplete="off"
          value={form.oneshotsDirectory}
          onChange={(e) => set({ oneshotsDirectory: e.target.value })}
          slotProps={{ htmlInput: { dir: 'ltr' } }}
        />
        <Box role="group" aria-labelledby={`${baseId}-types`}>
          <Typography id={`${baseId}-types`} variant="subtitle2" color="text.secondary">
            {t('libraries.form.scanTypes')}
          </Typography>
          <FormGroup row>
            {check('scanCbx', t('libraries.form.scanCbx'))}
            {check('scanPdf', t('libraries.form.scanPdf'))}
            {check('scanEpub', t('libraries.form.scanEpub'))}
          </FormGroup>
        </Box>
        <Autocomplete
          multiple
          freeSolo
          autoSelect
          options={[] as string[]}
          value={form.scanDirectoryExclusions}
          onChange={(_, value) => set({ scanDirectoryExclusions: cleanExclusions(value) })}
          renderValue={(value, getItemProps) =>
            value.map((option, index) => {
              const { key, ...itemProps } = getItemProps({ index });
              return <Chip key={key} size="small" label={option} dir="ltr" {...itemProps} />;
            })
          }
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('libraries.form.exclusions')}
              helperText={t('libraries.form.exclusionsHint')}
            />
          )}
        />
      </Stack>
    ),
    options: (
      <Stack spacing={2}>
        <Box role="group" aria-labelledby={`${baseId}-analysis`}>
          <Typography id={`${baseId}-analysis`} variant="subtitle2" color="text.secondary">
            {t('libraries.form.analysis')}
          </Typography>
          <FormGroup>
            {check('hashFiles', t('libraries.form.hashFiles'))}
            {check('hashPages', t('libraries.form.hashPages'))}
            {check('hashKoreader', t('libraries.form.hashKoreader'))}
            {check('analyzeDimensions', t('libraries.form.analyzeDimensions'))}
          </FormGroup>
          <FormHelperText>{resourceWarning}</FormHelperText>
        </Box>
        {group(t('libraries.form.fileManagement'), [
          ['repairExtensions', t('libraries.form.repairExtensions')],
          ['convertToCbz', t('libraries.form.convertToCbz')],
        ])}
        <TextField
          select
          label={t('libraries.form.seriesCover')}
          value={form.seriesCover}
          onChange={(e) => set({ seriesCover: e.target.value as SeriesCover })}
        >
          {SERIES_COVERS.map((cover) => (
            <MenuItem key={cover} value={cover}>
              {t(`libraries.seriesCover.${cover}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
    ),
    metadata: (
      <Stack spacing={1}>
        {group(t('libraries.form.comicInfo'), [
          ['importComicInfoBook', t('libraries.form.bookMetadata')],
          ['importComicInfoSeries', t('libraries.form.seriesMetadata')],
          ['importComicInfoSeriesAppendVolume', t('libraries.form.appendVolume')],
          ['importComicInfoCollection', t('libraries.form.collections')],
          ['importComicInfoReadList', t('libraries.form.readLists')],
        ])}
        {group(t('libraries.form.epub'), [
          ['importEpubBook', t('libraries.form.bookMetadata')],
          ['importEpubSeries', t('libraries.form.seriesMetadata')],
        ])}
        {group(t('libraries.form.mylar'), [['importMylarSeries', t('libraries.form.seriesMetadata')]])}
        {group(t('libraries.form.localAssets'), [['importLocalArtwork', t('libraries.form.localArtwork')]])}
        {group(t('libraries.form.barcode'), [['importBarcodeIsbn', t('libraries.form.isbnBarcode')]], resourceWarning)}
      </Stack>
    ),
  };

  const tabId = (i: number) => `${baseId}-tab-${i}`;
  const panelId = (i: number) => `${baseId}-panel-${i}`;
  const last = tab === TABS.length - 1;

  return (
    <Dialog
      open={open}
      onClose={close}
      fullScreen={fullScreen}
      fullWidth
      maxWidth={false}
      aria-labelledby={`${baseId}-title`}
      slotProps={{ paper: { sx: fullScreen ? undefined : { maxWidth: 700 } } }}
    >
      <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
        <DialogTitle id={`${baseId}-title`}>
          {library ? t('libraries.dialog.editTitle') : t('libraries.dialog.addTitle')}
        </DialogTitle>
        <DialogContent dividers sx={{ p: 0, display: 'flex', flexDirection: vertical ? 'row' : 'column' }}>
          <Tabs
            orientation={vertical ? 'vertical' : 'horizontal'}
            variant="scrollable"
            allowScrollButtonsMobile
            value={tab}
            onChange={(_, value: number) => setTab(value)}
            aria-label={t('libraries.dialog.sections')}
            sx={{
              flexShrink: 0,
              borderColor: 'divider',
              ...(vertical ? { borderRight: 1, minWidth: 160 } : { borderBottom: 1 }),
            }}
          >
            {TABS.map((key, i) => (
              <Tab
                key={key}
                id={tabId(i)}
                aria-controls={panelId(i)}
                icon={TAB_ICONS[key]}
                iconPosition="start"
                label={t(`libraries.tabs.${key}`)}
                sx={{ justifyContent: 'flex-start', minHeight: 48 }}
              />
            ))}
          </Tabs>
          <Box
            role="tabpanel"
            id={panelId(tab)}
            aria-labelledby={tabId(tab)}
            sx={{ flex: 1, minWidth: 0, p: 3, minHeight: { sm: 420 }, overflowY: 'auto' }}
          >
            {serverError && !rootServerError && (
              <Alert severity="error" sx={{ mb: 2 }}>
                {serverError}
              </Alert>
            )}
            {panels[TABS[tab]!]}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={mutation.isPending}>
            {t('common.cancel')}
          </Button>
          {!library && !last && (
            <Button variant="outlined" onClick={next} disabled={mutation.isPending}>
              {t('libraries.dialog.next')}
            </Button>
          )}
          <Button type="submit" variant="contained" loading={mutation.isPending}>
            {library ? t('libraries.dialog.save') : t('libraries.dialog.add')}
          </Button>
        </DialogActions>
      </form>
      {browsing && (
        <FolderBrowserDialog
          open
          initialPath={form.root}
          onClose={() => setBrowsing(false)}
          onSelect={(root) => {
            set({ root });
            setBrowsing(false);
          }}
        />
      )}
    </Dialog>
  );
}

function CheckboxField({
  label,
  helper,
  checked,
  onChange,
}: {
  label: string;
  helper?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const helperId = useId();
  return (
    <Box>
      <FormControlLabel
        label={label}
        control={
          <Checkbox
            checked={checked}
            onChange={(e) => onChange(e.target.checked)}
            slotProps={{ input: helper ? { 'aria-describedby': helperId } : undefined }}
          />
        }
      />
      {helper && (
        <FormHelperText id={helperId} sx={{ mt: -1, mb: 1, ml: 4 }}>
          {helper}
        </FormHelperText>
      )}
    </Box>
  );
}

/** A parent checkbox (ticked, unticked or mixed) over related options; ticking it sets them all. */
function CheckboxGroup<K extends string>({
  label,
  helper,
  items,
  onChange,
}: {
  label: string;
  helper?: string;
  items: { key: K; label: string; checked: boolean }[];
  onChange: (changes: Partial<Record<K, boolean>>) => void;
}) {
  const all = items.every((i) => i.checked);
  const some = items.some((i) => i.checked);
  const setAll = (value: boolean) =>
    onChange(Object.fromEntries(items.map((i) => [i.key, value])) as Record<K, boolean>);
  return (
    <Box>
      <FormControlLabel
        label={label}
        control={<Checkbox checked={all} indeterminate={some && !all} onChange={() => setAll(!all)} />}
      />
      <FormGroup role="group" aria-label={label} sx={{ ml: 4 }}>
        {items.map((item) => (
          <FormControlLabel
            key={item.key}
            label={item.label}
            control={
              <Checkbox
                checked={item.checked}
                onChange={(e) => onChange({ [item.key]: e.target.checked } as Partial<Record<K, boolean>>)}
              />
            }
          />
        ))}
      </FormGroup>
      {helper && <FormHelperText sx={{ ml: 4 }}>{helper}</FormHelperText>}
    </Box>
  );
}
