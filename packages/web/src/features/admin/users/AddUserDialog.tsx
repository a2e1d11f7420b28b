import { useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useCreateUser } from '../../../api/users';
import { useErrorText, useFullScreenDialog } from '../../../components/dialogs';
import { DEFAULT_ROLES, RoleCheckboxes, type Role } from './roles';
import { validateNewUser, type FieldError } from './user-form';

export interface AddUserDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (email: string) => void;
}

/** E-mail, password and roles (ui.md §13.1); FILE_DOWNLOAD and PAGE_STREAMING ticked by default. */
export function AddUserDialog({ open, onClose, onCreated }: AddUserDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const errorText = useErrorText();
  const create = useCreateUser();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [roles, setRoles] = useState<Role[]>([...DEFAULT_ROLES]);
  const [submitted, setSubmitted] = useState(false);
  const errors = validateNewUser({ email, password });
  const message = (e: FieldError | undefined) =>
    submitted && e ? t(e === 'required' ? 'users.required' : 'users.invalidEmail') : undefined;

  const reset = () => {
    setEmail('');
    setPassword('');
    setRoles([...DEFAULT_ROLES]);
    setSubmitted(false);
    create.reset();
  };
  const close = () => {
    if (!create.isPending) onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (errors.email || errors.password) return;
    create.mutate({ email: email.trim(), password, roles }, { onSuccess: (user) => onCreated(user.email) });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="xs"
      slotProps={{ transition: { onExited: reset } }}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t('users.addUserTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('users.email')}
              type="email"
              autoComplete="off"
              autoFocus
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={!!message(errors.email)}
              helperText={message(errors.email)}
              slotProps={{ htmlInput: { dir: 'ltr' } }}
            />
            <TextField
              label={t('users.password')}
              type="password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={!!message(errors.password)}
              helperText={message(errors.password)}
            />
            <RoleCheckboxes value={roles} onChange={setRoles} />
            {create.isError && <Alert severity="error">{errorText(create.error)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={create.isPending}>
            {t('users.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={create.isPending}>
            {t('users.create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
