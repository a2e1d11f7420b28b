import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Paper,
  Skeleton,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import SyncProblemIcon from '@mui/icons-material/SyncProblem';
import KeyIcon from '@mui/icons-material/Key';
import { useTranslation } from 'react-i18next';
import type { ApiKeyDto } from '@quire/api';
import { useCurrentUser } from '../../api/auth';
import { useApiKeys, useDeleteApiKey, useForceKoboSync } from '../../api/users';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';
import { ReadingAppsHelp } from './ReadingAppsHelp';
import { syncRoles } from './reading-apps';
import { ConfirmDialog, useDateTimeFormat, useErrorText, useToast } from '../../components/dialogs';

/** The signed-in user's API keys: list, generate, delete (ui.md §14), and which app takes what. */
export function ApiKeysSection() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  const remove = useDeleteApiKey();
  const forceSync = useForceKoboSync();
  const koboUser = syncRoles(useCurrentUser().data?.roles).kobo;
  const errorText = useErrorText();
  const formatDate = useDateTimeFormat();
  const { toast, show } = useToast();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ApiKeyDto | null>(null);
  const [resyncing, setResyncing] = useState<ApiKeyDto | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null);
        show(t('account.apiKeyDeleted'));
      },
    });
  };

  const confirmResync = () => {
    if (!resyncing) return;
    forceSync.mutate(resyncing.id, {
      onSuccess: () => {
        setResyncing(null);
        show(t('account.koboSyncForced'));
      },
    });
  };

  return (
    <Box component="section" aria-labelledby="api-keys-heading">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id="api-keys-heading" variant="h6" component="h2">
          {t('account.apiKeys')}
        </Typography>
        <Button startIcon={<AddIcon />} variant="outlined" onClick={() => setCreating(true)}>
          {t('account.generateApiKey')}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('account.apiKeysIntro')}
      </Typography>
      {keys.isPending ? (
        <Paper variant="outlined">
          {[0, 1].map((i) => (
            <Box key={i} sx={{ px: 2, py: 1.5 }}>
              <Skeleton width="40%" />
              <Skeleton width="25%" />
            </Box>
          ))}
        </Paper>
      ) : keys.isError ? (
        <Alert severity="error">{errorText(keys.error)}</Alert>
      ) : keys.data.length === 0 ? (
        <Typography color="text.secondary">{t('account.noApiKeys')}</Typography>
      ) : (
        <Paper variant="outlined">
          <List aria-labelledby="api-keys-heading">
            {keys.data.map((key) => (
              <ListItem
                key={key.id}
                secondaryAction={
                  <Stack direction="row" spacing={1}>
                    {koboUser && (
                      <Tooltip title={t('account.forceKoboSync')}>
                        <IconButton
                          aria-label={t('account.forceKoboSyncNamed', { comment: key.comment })}
                          onClick={() => {
                            forceSync.reset();
                            setResyncing(key);
                          }}
                        >
                          <SyncProblemIcon />
                        </IconButton>
                      </Tooltip>
                    )}
                    <Tooltip title={t('account.deleteApiKey')}>
                      <IconButton
                        edge="end"
                        aria-label={t('account.deleteApiKeyNamed', { comment: key.comment })}
                        onClick={() => {
                          remove.reset();
                          setDeleting(key);
                        }}
                      >
                        <DeleteIcon />
                      </IconButton>
                    </Tooltip>
                  </Stack>
                }
              >
                <ListItemIcon>
                  <KeyIcon />
                </ListItemIcon>
                <ListItemText
                  primary={key.comment}
                  secondary={t('account.createdOn', { date: formatDate(key.createdDate) })}
                />
              </ListItem>
            ))}
          </List>
        </Paper>
      )}
      <ReadingAppsHelp />
      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={!!deleting}
        title={t('account.deleteApiKeyTitle')}
        acknowledge={t('account.deleteApiKeyConfirm', { comment: deleting?.comment ?? '' })}
        confirmLabel={t('account.delete')}
        pending={remove.isPending}
        error={remove.isError ? errorText(remove.error) : null}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      >
        <Typography>{t('account.deleteApiKeyWarning')}</Typography>
      </ConfirmDialog>
      <ConfirmDialog
        open={!!resyncing}
        title={t('account.forceKoboSync')}
        danger={false}
        confirmLabel={t('account.forceKoboSyncConfirm')}
        pending={forceSync.isPending}
        error={forceSync.isError ? errorText(forceSync.error) : null}
        onConfirm={confirmResync}
        onClose={() => setResyncing(null)}
      >
        <Typography>{t('account.forceKoboSyncWarning', { comment: resyncing?.comment ?? '' })}</Typography>
      </ConfirmDialog>
      {toast}
    </Box>
  );
}
