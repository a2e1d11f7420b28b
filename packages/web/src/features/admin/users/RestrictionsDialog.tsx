import { useState, type FormEvent } from 'react';
import {
  Alert,
  Autocomplete,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  MenuItem,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { UserDto } from '@quire/api';
import { useLibraries } from '../../../api/libraries';
import { useUpdateUser } from '../../../api/users';
import { useErrorText, useFullScreenDialog } from '../../../components/dialogs';
import {
  restrictionsFormOf,
  restrictionsUpdate,
  validateRestrictions,
  type RestrictionKind,
  type RestrictionsForm,
} from './user-form';

export interface RestrictionsDialogProps {
  user: UserDto;
  /** Sharing labels already in use, offered as suggestions. */
  labelSuggestions: readonly string[];
  onClose: () => void;
  onSaved: () => void;
}

/** Shared libraries and content restrictions of one user (ui.md §13.1). */
export function RestrictionsDialog({ user, labelSuggestions, onClose, onSaved }: RestrictionsDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const errorText = useErrorText();
  const libraries = useLibraries();
  const update = useUpdateUser();
  const [form, setForm] = useState<RestrictionsForm>(() => restrictionsFormOf(user));
  const [submitted, setSubmitted] = useState(false);
  const errors = validateRestrictions(form);
  const ageMessage =
    (submitted || form.age !== '') && errors.age
      ? t(errors.age === 'required' ? 'users.required' : 'users.mustBeZeroOrMore')
      : undefined;

  const set = (patch: Partial<RestrictionsForm>) => setForm((f) => ({ ...f, ...patch }));
  const toggleLibrary = (id: string, on: boolean) =>
    set({ libraryIds: on ? [...form.libraryIds, id] : form.libraryIds.filter((l) => l !== id) });
  const close = () => {
    if (!update.isPending) onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (errors.age) return;
    update.mutate({ id: user.id, ...restrictionsUpdate(form) }, { onSuccess: onSaved });
  };

  const labelsInput = (key: 'labelsAllow' | 'labelsExclude', label: string) => (
    <Autocomplete
      multiple
      freeSolo
      autoSelect
      options={labelSuggestions.filter((l) => !form[key].includes(l))}
      value={form[key]}
      onChange={(_, value) => set({ [key]: [...new Set(value.map((v) => v.trim()).filter(Boolean))] })}
      renderValue={(value, getItemProps) =>
        value.map((option, index) => {
          const { key: itemKey, ...itemProps } = getItemProps({ index });
          return <Chip key={itemKey} size="small" label={option} {...itemProps} />;
        })
      }
      renderInput={(params) => <TextField {...params} label={label} helperText={t('users.labelsHint')} />}
    />
  );

  return (
    <Dialog open onClose={close} fullScreen={fullScreen} fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle sx={{ wordBreak: 'break-word' }}>
          {t('users.restrictionsTitle', { email: user.email })}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={3} sx={{ pt: 1 }}>
            <FormControl component="fieldset" variant="standard">
              <FormLabel component="legend">{t('users.sharedLibraries')}</FormLabel>
              <FormGroup>
                <FormControlLabel
                  label={t('users.allLibraries')}
                  control={
                    <Checkbox checked={form.allLibraries} onChange={(e) => set({ allLibraries: e.target.checked })} />
                  }
                />
                {libraries.isPending ? (
                  <Skeleton width={200} sx={{ marginInlineStart: 4 }} />
                ) : libraries.isError ? (
                  <Alert severity="error">{errorText(libraries.error)}</Alert>
                ) : libraries.data.length === 0 ? (
                  <Typography variant="body2" color="text.secondary" sx={{ marginInlineStart: 4 }}>
                    {t('users.noLibraries')}
                  </Typography>
                ) : (
                  libraries.data.map((library) => (
                    <FormControlLabel
                      key={library.id}
                      sx={{ marginInlineStart: 2 }}
                      label={library.name}
                      control={
                        <Checkbox
                          disabled={form.allLibraries}
                          checked={form.allLibraries || form.libraryIds.includes(library.id)}
                          onChange={(e) => toggleLibrary(library.id, e.target.checked)}
                        />
                      }
                    />
                  ))
                )}
              </FormGroup>
            </FormControl>

            <Stack spacing={2} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <FormLabel component="legend" sx={{ mb: 1 }}>
                {t('users.contentRestrictions')}
              </FormLabel>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  select
                  label={t('users.ageRestriction')}
                  value={form.restriction}
                  onChange={(e) => set({ restriction: e.target.value as RestrictionKind })}
                  sx={{ minWidth: 220 }}
                >
                  <MenuItem value="NONE">{t('users.ageNone')}</MenuItem>
                  <MenuItem value="ALLOW_ONLY">{t('users.ageAllowOnly')}</MenuItem>
                  <MenuItem value="EXCLUDE">{t('users.ageExclude')}</MenuItem>
                </TextField>
                <TextField
                  label={t('users.age')}
                  type="number"
                  disabled={form.restriction === 'NONE'}
                  required={form.restriction !== 'NONE'}
                  value={form.age}
                  onChange={(e) => set({ age: e.target.value })}
                  error={!!ageMessage}
                  helperText={ageMessage}
                  slotProps={{ htmlInput: { min: 0, step: 1, inputMode: 'numeric' } }}
                />
              </Stack>
              {labelsInput('labelsAllow', t('users.labelsAllow'))}
              {labelsInput('labelsExclude', t('users.labelsExclude'))}
            </Stack>
            {update.isError && <Alert severity="error">{errorText(update.error)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={update.isPending}>
            {t('users.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={update.isPending}>
            {t('users.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
