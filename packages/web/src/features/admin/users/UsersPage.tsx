import { useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  Alert,
  Avatar,
  Box,
  Button,
  Chip,
  IconButton,
  List,
  ListItem,
  ListItemAvatar,
  Paper,
  Skeleton,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import LockPersonIcon from '@mui/icons-material/LockPerson';
import LockResetIcon from '@mui/icons-material/LockReset';
import PersonIcon from '@mui/icons-material/Person';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { useTranslation } from 'react-i18next';
import type { UserDto } from '@quire/api';
import { useCurrentUser } from '../../../api/auth';
import { useDeleteUser, useLatestActivity, useUsers } from '../../../api/users';
import { AuthenticationActivityTable } from '../../account/AuthenticationActivityTable';
import { ChangePasswordDialog } from '../../account/ChangePasswordDialog';
import { ConfirmDialog, useDateTimeFormat, useErrorText, useToast } from '../../../components/dialogs';
import { AddUserDialog } from './AddUserDialog';
import { EditRolesDialog } from './EditRolesDialog';
import { RestrictionsDialog } from './RestrictionsDialog';
import { RoleChips } from './roles';

const USERS_PATH = '/settings/users';

type Action = { kind: 'roles' | 'restrictions' | 'password' | 'delete'; user: UserDto };

/**
 * Users and every user's authentication activity (ui.md §13.1, spec §2). `/settings/users/add` opens the add dialog;
 * closing it returns to the list.
 */
export function UsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const users = useUsers();
  const me = useCurrentUser();
  const remove = useDeleteUser();
  const errorText = useErrorText();
  const { toast, show } = useToast();
  const [action, setAction] = useState<Action | null>(null);
  /** The user of the last action, kept while a dialog fades out so its text does not change under the eye. */
  const [target, setTarget] = useState<UserDto | null>(null);
  const adding = /\/add\/?$/.test(pathname);
  const closeAdd = () => void navigate(USERS_PATH);

  const labelSuggestions = useMemo(
    () => [...new Set((users.data ?? []).flatMap((u) => [...u.labelsAllow, ...u.labelsExclude]))].sort(),
    [users.data],
  );
  const done = (message: string) => {
    setAction(null);
    show(message);
  };

  return (
    <Stack spacing={3} sx={{ p: { xs: 2, sm: 3 }, maxWidth: 1100, mx: 'auto' }}>
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        <Box>
          <Typography variant="h5" component="h1">
            {t('users.title')}
          </Typography>
          {users.data && (
            <Typography variant="body2" color="text.secondary">
              {t('users.count', { count: users.data.length })}
            </Typography>
          )}
        </Box>
        <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => void navigate(`${USERS_PATH}/add`)}>
          {t('users.addUser')}
        </Button>
      </Stack>

      {users.isPending ? (
        <Paper variant="outlined">
          {[0, 1, 2].map((i) => (
            <Stack key={i} direction="row" spacing={2} sx={{ px: 2, py: 1.5, alignItems: 'center' }}>
              <Skeleton variant="circular" width={40} height={40} />
              <Box sx={{ flexGrow: 1 }}>
                <Skeleton width="35%" />
                <Skeleton width="50%" />
              </Box>
            </Stack>
          ))}
        </Paper>
      ) : users.isError ? (
        <Alert severity="error">{errorText(users.error)}</Alert>
      ) : (
        <Paper variant="outlined">
          <List aria-label={t('users.title')}>
            {users.data.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                isSelf={user.id === me.data?.id}
                onAction={(kind) => {
                  remove.reset();
                  setTarget(user);
                  setAction({ kind, user });
                }}
              />
            ))}
          </List>
        </Paper>
      )}

      <AuthenticationActivityTable scope="all" />

      <AddUserDialog
        open={adding}
        onClose={closeAdd}
        onCreated={(email) => {
          closeAdd();
          show(t('users.userCreated', { email }));
        }}
      />
      {action?.kind === 'roles' && (
        <EditRolesDialog
          user={action.user}
          onClose={() => setAction(null)}
          onSaved={() => done(t('users.userSaved'))}
        />
      )}
      {action?.kind === 'restrictions' && (
        <RestrictionsDialog
          user={action.user}
          labelSuggestions={labelSuggestions}
          onClose={() => setAction(null)}
          onSaved={() => done(t('users.userSaved'))}
        />
      )}
      {/* An administrator's own password is changed as on My account: with the current one. */}
      <ChangePasswordDialog
        open={action?.kind === 'password'}
        userId={target?.id === me.data?.id ? undefined : target?.id}
        email={target?.id === me.data?.id ? undefined : target?.email}
        onClose={() => setAction(null)}
        onChanged={() => done(t('users.passwordChanged'))}
      />
      <ConfirmDialog
        open={action?.kind === 'delete'}
        title={t('users.deleteUserTitle')}
        acknowledge={t('users.deleteUserConfirm', { email: target?.email ?? '' })}
        confirmLabel={t('users.delete')}
        pending={remove.isPending}
        error={remove.isError ? errorText(remove.error) : null}
        onConfirm={() => action && remove.mutate(action.user.id, { onSuccess: () => done(t('users.userDeleted')) })}
        onClose={() => setAction(null)}
      >
        <Typography>{t('users.deleteUserWarning', { email: target?.email ?? '' })}</Typography>
      </ConfirmDialog>
      {toast}
    </Stack>
  );
}

interface UserRowProps {
  user: UserDto;
  isSelf: boolean;
  onAction: (kind: Action['kind']) => void;
}

function UserRow({ user, isSelf, onAction }: UserRowProps) {
  const { t } = useTranslation();
  const latest = useLatestActivity(user.id);
  const formatDate = useDateTimeFormat();
  const isAdmin = user.roles.includes('ADMIN');
  const activity = latest.isPending ? (
    <Skeleton width={180} component="span" sx={{ display: 'inline-block' }} />
  ) : latest.data ? (
    t('users.latestActivity', { date: formatDate(latest.data.dateTime) })
  ) : (
    t('users.noRecentActivity')
  );

  /** A disabled button cannot show a tooltip itself, so the tooltip sits on a wrapper. */
  const action = (kind: Action['kind'], label: string, icon: ReactNode, disabledReason?: string) => (
    <Tooltip title={disabledReason ?? label}>
      <span>
        <IconButton
          aria-label={t('users.actionOnUser', { action: label, email: user.email })}
          disabled={!!disabledReason}
          onClick={() => onAction(kind)}
          color={kind === 'delete' ? 'error' : 'default'}
        >
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );

  return (
    <ListItem
      divider
      sx={{ flexDirection: { xs: 'column', sm: 'row' }, alignItems: { xs: 'stretch', sm: 'flex-start' }, gap: 1 }}
      aria-label={user.email}
    >
      <Stack direction="row" sx={{ flexGrow: 1, minWidth: 0, alignItems: 'flex-start' }}>
        <ListItemAvatar sx={{ mt: 0.5 }}>
          <Tooltip title={isAdmin ? t('users.roleAdmin') : t('users.roleUser')}>
            {/* An image named by its tooltip (the role), not a bare div with a label. */}
            <Avatar role="img" sx={{ bgcolor: isAdmin ? 'error.main' : undefined }}>
              {isAdmin ? <AdminPanelSettingsIcon /> : <PersonIcon />}
            </Avatar>
          </Tooltip>
        </ListItemAvatar>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
            <Typography sx={{ wordBreak: 'break-all' }}>
              <bdi>{user.email}</bdi>
            </Typography>
            {isSelf && <Chip size="small" color="primary" label={t('users.you')} />}
          </Stack>
          <Box sx={{ my: 0.5 }}>
            <RoleChips roles={user.roles} />
          </Box>
          <Typography variant="body2" color="text.secondary">
            {activity}
          </Typography>
          {isSelf && (
            <Typography variant="caption" color="text.secondary" component="p">
              {t('users.selfExplanation')}
            </Typography>
          )}
        </Box>
      </Stack>
      <Stack direction="row" sx={{ flexShrink: 0, alignSelf: { xs: 'flex-end', sm: 'flex-start' } }}>
        {action(
          'restrictions',
          t('users.editRestrictions'),
          <LockPersonIcon />,
          isAdmin ? t('users.adminNoRestrictions') : undefined,
        )}
        {action('password', t('users.changePassword'), <LockResetIcon />)}
        {action('roles', t('users.editRoles'), <EditIcon />, isSelf ? t('users.cannotEditOwnRoles') : undefined)}
        {action('delete', t('users.deleteUser'), <DeleteIcon />, isSelf ? t('users.cannotDeleteSelf') : undefined)}
      </Stack>
    </ListItem>
  );
}
