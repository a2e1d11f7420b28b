import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useChangePassword } from '../../api/users';
import { useErrorText, useFullScreenDialog } from '../../components/dialogs';
import { validatePasswordForm, type PasswordError } from './password-form';

export interface ChangePasswordDialogProps {
  open: boolean;
  /** Whose password; omitted for the signed-in user's own, which also asks for the current password. */
  userId?: string;
  /** Shown under the title when an administrator changes someone else's password. */
  email?: string;
  onClose: () => void;
  onChanged: () => void;
}

/**
 * New password + repeat (ui.md §13.1), used from My account and from the users screen. For one's own password,
 * the current one first (a Quire addition: the server asks for it from a browser session).
 */
export function ChangePasswordDialog({ open, userId, email, onClose, onChanged }: ChangePasswordDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const errorText = useErrorText();
  const change = useChangePassword();
  const own = !userId;
  const empty = { current: '', password: '', repeat: '' };
  const [form, setForm] = useState(empty);
  const [submitted, setSubmitted] = useState(false);
  const errors = validatePasswordForm(form, { needsCurrent: own });
  const message = (e: PasswordError | undefined) =>
    submitted && e ? t(e === 'required' ? 'account.required' : 'account.passwordsMustMatch') : undefined;

  const reset = () => {
    setForm(empty);
    setSubmitted(false);
    change.reset();
  };
  const close = () => {
    if (!change.isPending) onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length) return;
    change.mutate(
      { userId, password: form.password, currentPassword: own ? form.current : undefined },
      { onSuccess: onChanged },
    );
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
        <DialogTitle>{t('account.changePasswordTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {email && <Alert severity="info">{t('account.changePasswordFor', { email })}</Alert>}
            {own && (
              <TextField
                label={t('account.currentPassword')}
                type="password"
                autoComplete="current-password"
                autoFocus
                required
                value={form.current}
                onChange={(e) => setForm({ ...form, current: e.target.value })}
                error={!!message(errors.current)}
                helperText={message(errors.current)}
              />
            )}
            <TextField
              label={t('account.newPassword')}
              type="password"
              autoComplete="new-password"
              autoFocus={!own}
              required
              value={form.password}
              onChange={(e) => setForm({ ...form, password: e.target.value })}
              error={!!message(errors.password)}
              helperText={message(errors.password)}
            />
            <TextField
              label={t('account.repeatPassword')}
              type="password"
              autoComplete="new-password"
              required
              value={form.repeat}
              onChange={(e) => setForm({ ...form, repeat: e.target.value })}
              error={!!message(errors.repeat)}
              helperText={message(errors.repeat)}
            />
            {own && <Typography variant="body2">{t('account.otherSessionsSignedOut')}</Typography>}
            {change.isError && <Alert severity="error">{errorText(change.error)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={change.isPending}>
            {t('account.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={change.isPending}>
            {t('account.savePassword')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
