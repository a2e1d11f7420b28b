import { useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { useClaim, useClaimStatus, useLogin } from '../../api/auth';
import { setPreference, usePreferences } from '../../app/preferences';
import { Logo } from '../../components/Logo';
import { LanguageSelect, ThemeSelect } from '../../components/PreferenceSelects';
import { errorText, translateServerMessage } from '../../i18n/errorMessage';
import { safeRedirect } from './redirect';
import { useOAuth2LoginSettings, useOAuth2Providers } from '../../api/oauth2';
import { OAuth2Buttons, oauth2ErrorText } from './OAuth2Buttons';

const EMAIL = /^.+@.+\..+$/;

export interface LoginErrors {
  email?: string;
  password?: string;
}

/** Spec §5: both fields required ('Required'), and the e-mail must look like an address. */
export function validateLogin(t: TFunction, email: string, password: string): LoginErrors {
  const errors: LoginErrors = {};
  if (!email.trim()) errors.email = t('common.required');
  else if (!EMAIL.test(email.trim())) errors.email = t('auth.invalidEmail');
  if (!password) errors.password = t('common.required');
  return errors;
}

/** Spec §8: a 401 reads "Invalid authentication" plus the server's detail; anything else names the operation. */
export function loginErrorText(t: TFunction, error: unknown, creating: boolean): string {
  if (error instanceof ApiError && error.status === 401) {
    const detail = error.message && error.message !== 'Unauthorized' ? translateServerMessage(t, error.message) : '';
    return detail ? t('auth.invalidAuthenticationDetail', { detail }) : t('auth.invalidAuthentication');
  }
  const detail = errorText(t, error);
  return creating ? t('auth.claimFailed', { detail }) : t('auth.loginFailed', { detail });
}

/** The form's rows: a text field with its helper line; the remember-me row and the large button. */
const FIELD_HEIGHT = 79;
const ROW_HEIGHT = 42;

/** The fields' places while the page learns which form to show: the same heights, so nothing moves after. */
function FormSkeleton() {
  const field = (
    <Box sx={{ height: FIELD_HEIGHT }}>
      <Skeleton variant="rounded" height={56} />
    </Box>
  );
  return (
    <>
      {field}
      {field}
      <Box sx={{ height: ROW_HEIGHT, display: 'flex', alignItems: 'center' }}>
        <Skeleton variant="text" width="35%" />
      </Box>
      <Skeleton variant="rounded" height={ROW_HEIGHT} />
    </>
  );
}

/**
 * `/login?redirect=…`: e-mail, password and remember me; create-account mode while the server is unclaimed. With
 * OAuth2 providers, their buttons; `webui.oauth2.hide_login` hides the fields, `webui.oauth2.auto_login` opens the
 * only provider at once, and a failed provider login comes back as `?error=`.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const claim = useClaimStatus();
  const creating = claim.data?.isClaimed === false;
  const login = useLogin();
  const claimServer = useClaim();
  const action = creating ? claimServer : login;

  const rememberMe = usePreferences((p) => p.rememberMe);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const errors = submitted ? validateLogin(t, email, password) : {};

  const providersQuery = useOAuth2Providers();
  const loginSettingsQuery = useOAuth2LoginSettings();
  const providers = providersQuery.data ?? [];
  const loginSettings = loginSettingsQuery.data;
  // The form depends on the three answers: drawn before them, the fields showed and then went (hide_login, when the
  // providers answered first), or the login turned into the claim form.
  const settled = !claim.isPending && !providersQuery.isPending && !loginSettingsQuery.isPending;
  const oauth2Error = params.get('error');
  const offersProviders = !creating && providers.length > 0;
  const hideFields = offersProviders && !!loginSettings?.hideLogin;
  const autoLogin = !creating && !!loginSettings?.autoLogin && oauth2Error === null && params.get('logout') === null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const found = validateLogin(t, email, password);
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    action.mutate(
      { email: email.trim(), password, rememberMe },
      { onSuccess: () => navigate(safeRedirect(params.get('redirect')), { replace: true }) },
    );
  };

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Stack spacing={3} sx={{ width: '100%', maxWidth: 550, alignItems: 'center' }}>
        <Logo size={96} />
        <Paper component="main" sx={{ p: 3, width: '100%' }}>
          {settled ? (
            <Typography variant="h5" component="h1" gutterBottom>
              {creating ? t('auth.claimTitle') : t('auth.loginTitle')}
            </Typography>
          ) : (
            // the title's line: h5 (1.5rem, line height 1.334) and its gutter
            <Skeleton variant="text" width="40%" height={32} sx={{ fontSize: '1.5rem', mb: '0.35em' }} />
          )}
          <Stack component="form" spacing={2} noValidate onSubmit={onSubmit} aria-busy={!settled}>
            {creating && <Alert severity="info">{t('auth.unclaimedInfo')}</Alert>}
            {params.get('logout') !== null && !action.isError && (
              <Alert severity="success">{t('auth.loggedOut')}</Alert>
            )}
            {action.isError && (
              <Alert severity="error" role="alert">
                {loginErrorText(t, action.error, creating)}
              </Alert>
            )}
            {oauth2Error !== null && !action.isError && (
              <Alert severity="error" role="alert">
                {oauth2ErrorText(t, oauth2Error)}
              </Alert>
            )}
            {!settled && <FormSkeleton />}
            {settled && offersProviders && <OAuth2Buttons providers={providers} autoLogin={autoLogin} />}
            {settled && offersProviders && !hideFields && (
              <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
                {t('oauth2.or')}
              </Typography>
            )}
            {settled && !hideFields && (
              <>
                <TextField
                  label={t('auth.email')}
                  type="email"
                  name="email"
                  autoComplete={creating ? 'email' : 'username'}
                  autoFocus
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                  error={!!errors.email}
                  helperText={errors.email ?? ' '}
                  inputRef={emailRef}
                  fullWidth
                  slotProps={{ htmlInput: { dir: 'ltr' } }}
                />
                <TextField
                  label={t('auth.password')}
                  type="password"
                  name="password"
                  autoComplete={creating ? 'new-password' : 'current-password'}
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  error={!!errors.password}
                  helperText={errors.password ?? ' '}
                  inputRef={passwordRef}
                  fullWidth
                />
                <FormControlLabel
                  control={
                    <Checkbox checked={rememberMe} onChange={(e) => setPreference('rememberMe', e.target.checked)} />
                  }
                  label={t('auth.rememberMe')}
                />
                <Button
                  type="submit"
                  variant="contained"
                  size="large"
                  loading={action.isPending}
                  disabled={claim.isPending}
                >
                  {creating ? t('auth.createAccount') : t('auth.login')}
                </Button>
              </>
            )}
          </Stack>
        </Paper>
        <Stack direction="row" spacing={2} sx={{ width: '100%' }}>
          <ThemeSelect />
          <LanguageSelect />
        </Stack>
      </Stack>
    </Box>
  );
}
