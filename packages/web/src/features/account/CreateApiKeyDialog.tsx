import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../api/auth';
import { useCreateApiKey } from '../../api/users';
import { useErrorText, useFullScreenDialog } from '../../components/dialogs';
import { CopyField } from './CopyField';
import { readingAppUrls, syncRoles } from './reading-apps';

export interface CreateApiKeyDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * Comment in, key out: the plain key is shown once, with a copy button (ui.md §14), and with what to enter in the
 * sync apps the user's roles allow (the Kobo address carries the key, so it too can be shown only now).
 */
export function CreateApiKeyDialog({ open, onClose }: CreateApiKeyDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const errorText = useErrorText();
  const create = useCreateApiKey();
  const [comment, setComment] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const created = create.data;
  const commentError = submitted && !comment.trim() ? t('account.required') : undefined;
  const me = useCurrentUser();
  const sync = syncRoles(me.data?.roles);
  const urls = readingAppUrls();

  const reset = () => {
    setComment('');
    setSubmitted(false);
    create.reset();
  };
  const close = () => {
    if (!create.isPending) onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!comment.trim() || created) return;
    create.mutate(comment.trim());
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="sm"
      slotProps={{ transition: { onExited: reset } }}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t('account.generateApiKeyTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>{t('account.apiKeysIntro')}</DialogContentText>
            <TextField
              label={t('account.apiKeyComment')}
              autoFocus
              required
              disabled={!!created}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              error={!!commentError}
              // Once the key exists the field is disabled: its hint, in the disabled grey, would be unreadable (2.7:1).
              helperText={commentError ?? (created ? undefined : t('account.apiKeyCommentHint'))}
            />
            {create.isError && <Alert severity="error">{errorText(create.error)}</Alert>}
            {created && (
              <>
                <Alert severity="warning">{t('account.apiKeyShownOnce')}</Alert>
                <CopyField label={t('account.apiKeyValue')} value={created.key} copyLabel={t('account.copyApiKey')} />
                {sync.kobo && (
                  <>
                    <DialogContentText>{t('account.koboEndpointHelp')}</DialogContentText>
                    <CopyField label={t('account.koboEndpoint')} value={urls.kobo(created.key)} />
                  </>
                )}
                {sync.koreader && (
                  <DialogContentText>{t('account.koreaderKeyHelp', { url: urls.koreader })}</DialogContentText>
                )}
              </>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          {created ? (
            <Button variant="contained" onClick={close}>
              {t('account.done')}
            </Button>
          ) : (
            <>
              <Button onClick={close} disabled={create.isPending}>
                {t('account.cancel')}
              </Button>
              <Button type="submit" variant="contained" loading={create.isPending}>
                {t('account.generate')}
              </Button>
            </>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
