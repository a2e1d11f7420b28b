import { useState } from 'react';
import { Alert, Box, Button, Divider, Paper, Skeleton, Stack, Typography } from '@mui/material';
import LockResetIcon from '@mui/icons-material/LockReset';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../api/auth';
import { RoleChips } from '../admin/users/roles';
import { ApiKeysSection } from './ApiKeysSection';
import { AuthenticationActivityTable } from './AuthenticationActivityTable';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { useErrorText, useToast } from '../../components/dialogs';

/** My account (ui.md §14): details and password, API keys, own authentication activity. */
export function AccountPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const errorText = useErrorText();
  const { toast, show } = useToast();
  const [changingPassword, setChangingPassword] = useState(false);

  return (
    <Stack spacing={4} sx={{ p: { xs: 2, sm: 3 }, maxWidth: 1100, mx: 'auto' }}>
      <Typography variant="h5" component="h1">
        {t('account.title')}
      </Typography>

      <Box component="section" aria-labelledby="details-heading">
        <Typography id="details-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('account.details')}
        </Typography>
        <Paper variant="outlined" sx={{ p: 2 }}>
          {me.isError ? (
            <Alert severity="error">{errorText(me.error)}</Alert>
          ) : (
            <Stack spacing={2}>
              <Box>
                <Typography variant="caption" color="text.secondary" component="div">
                  {t('account.email')}
                </Typography>
                {me.isPending ? (
                  <Skeleton width={220} />
                ) : (
                  <Typography sx={{ wordBreak: 'break-all' }}>
                    <bdi>{me.data?.email}</bdi>
                  </Typography>
                )}
              </Box>
              <Box>
                <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.5 }}>
                  {t('account.roles')}
                </Typography>
                {me.isPending ? <Skeleton width={160} height={24} /> : <RoleChips roles={me.data?.roles ?? []} />}
              </Box>
              <Divider />
              <Box>
                <Button
                  variant="outlined"
                  startIcon={<LockResetIcon />}
                  onClick={() => setChangingPassword(true)}
                  disabled={me.isPending}
                >
                  {t('account.changePassword')}
                </Button>
              </Box>
            </Stack>
          )}
        </Paper>
      </Box>

      <ApiKeysSection />
      <AuthenticationActivityTable scope="me" />

      <ChangePasswordDialog
        open={changingPassword}
        onClose={() => setChangingPassword(false)}
        onChanged={() => {
          setChangingPassword(false);
          show(t('account.passwordChanged'));
        }}
      />
      {toast}
    </Stack>
  );
}
