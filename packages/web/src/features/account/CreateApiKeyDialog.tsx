import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  InputAdornment,
  Stack,
  TextField,
  Tooltip,
} from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useTranslation } from 'react-i18next';
import { useCreateApiKey } from '../../api/users';
import { useErrorText, useFullScreenDialog } from '../../components/dialogs';

export interface CreateApiKeyDialogProps {
  open: boolean;
  onClose: () => void;
}

/** Comment in, key out: the plain key is shown once, with a copy button (ui.md §14). */
export function CreateApiKeyDialog({ open, onClose }: CreateApiKeyDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const errorText = useErrorText();
  const create = useCreateApiKey();
  const [comment, setComment] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [copied, setCopied] = useState(false);
  const created = create.data;
  const commentError = submitted && !comment.trim() ? t('account.required') : undefined;
  const canCopy = typeof navigator !== 'undefined' && !!navigator.clipboard;

  const reset = () => {
    setComment('');
    setSubmitted(false);
    setCopied(false);
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
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      setCopied(false);
    }
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
              helperText={commentError ?? t('account.apiKeyCommentHint')}
            />
            {create.isError && <Alert severity="error">{errorText(create.error)}</Alert>}
            {created && (
              <>
                <Alert severity="warning">{t('account.apiKeyShownOnce')}</Alert>
                <TextField
                  label={t('account.apiKeyValue')}
                  value={created.key}
                  slotProps={{
                    htmlInput: { readOnly: true, dir: 'ltr', style: { fontFamily: 'monospace' } },
                    input: canCopy
                      ? {
                          endAdornment: (
                            <InputAdornment position="end">
                              <Tooltip title={copied ? t('account.copied') : t('account.copyApiKey')}>
                                <IconButton aria-label={t('account.copyApiKey')} onClick={() => void copy()} edge="end">
                                  {copied ? <CheckIcon color="success" /> : <ContentCopyIcon />}
                                </IconButton>
                              </Tooltip>
                            </InputAdornment>
                          ),
                        }
                      : undefined,
                  }}
                />
                {copied && (
                  <Alert severity="success" role="status">
                    {t('account.copied')}
                  </Alert>
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
