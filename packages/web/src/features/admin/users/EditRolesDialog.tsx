import { useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { UserDto } from '@quire/api';
import { useUpdateUser } from '../../../api/users';
import { useErrorText, useFullScreenDialog } from '../../../components/dialogs';
import { isRole, RoleCheckboxes, type Role } from './roles';

export interface EditRolesDialogProps {
  user: UserDto;
  onClose: () => void;
  onSaved: () => void;
}

/** "Roles for {email}" (ui.md §13.1). Mounted per user, so the form starts from that user's roles. */
export function EditRolesDialog({ user, onClose, onSaved }: EditRolesDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const errorText = useErrorText();
  const update = useUpdateUser();
  const [roles, setRoles] = useState<Role[]>(user.roles.filter(isRole));
  const close = () => {
    if (!update.isPending) onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ id: user.id, roles }, { onSuccess: onSaved });
  };
  return (
    <Dialog open onClose={close} fullScreen={fullScreen} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle sx={{ wordBreak: 'break-word' }}>{t('users.editRolesTitle', { email: user.email })}</DialogTitle>
        <DialogContent>
          <RoleCheckboxes value={roles} onChange={setRoles} />
          {update.isError && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {errorText(update.error)}
            </Alert>
          )}
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
