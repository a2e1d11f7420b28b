import { useEffect, useRef } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import GoogleIcon from '@mui/icons-material/Google';
import FacebookIcon from '@mui/icons-material/Facebook';
import LoginIcon from '@mui/icons-material/Login';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { OAuth2ClientDto } from '@quire/api';
import { translateServerMessage } from '../../i18n/errorMessage';
import { openOAuth2Popup } from './oauth2Popup';

/** The sentences the server sends to `?error=` when a provider fails, by the key of their translation. */
const SERVER_FAILURES: Record<string, string> = {
  'The OAuth2 provider could not be reached': 'oauth2.providerUnreachable',
  'The OAuth2 provider did not answer in time': 'oauth2.providerTimeout',
  'No OAuth2 login was started from this browser, or it took too long': 'oauth2.flowLost',
};

/** `?error=` of a failed OAuth2 login, in the reader's language: an ERR_xxxx code, a known failure, or the server's text. */
export function oauth2ErrorText(t: TFunction, error: string): string {
  const known = SERVER_FAILURES[error];
  if (known) return t(known);
  if (/^ERR_\d{4}$/.test(error)) return translateServerMessage(t, error);
  return t('oauth2.failed', { detail: error });
}

/** Komga's brand colours for the providers it knows by id (ui.md §1.1); others use the theme's. */
const BRANDS: Record<string, { icon: typeof LoginIcon; color: string }> = {
  google: { icon: GoogleIcon, color: '#4285F4' },
  facebook: { icon: FacebookIcon, color: '#1877F2' },
};

/**
 * One "Sign in with {name}" button per provider, each opening the provider in a popup. With `autoLogin` and exactly one
 * provider, the popup opens at once (not after a logout or a failed login, which would loop).
 */
export function OAuth2Buttons({ providers, autoLogin }: { providers: OAuth2ClientDto[]; autoLogin: boolean }) {
  const { t } = useTranslation();
  const opened = useRef(false);
  const only = providers.length === 1 ? providers[0] : undefined;
  useEffect(() => {
    if (!autoLogin || !only || opened.current) return;
    opened.current = true;
    openOAuth2Popup(only.registrationId);
  }, [autoLogin, only]);

  return (
    <Stack spacing={1} sx={{ alignItems: 'center' }}>
      {providers.map((p) => {
        const brand = BRANDS[p.registrationId];
        const Icon = brand?.icon ?? LoginIcon;
        return (
          <Button
            key={p.registrationId}
            variant="outlined"
            startIcon={<Icon sx={brand ? { color: brand.color } : undefined} />}
            sx={{ width: 250 }}
            onClick={() => openOAuth2Popup(p.registrationId)}
          >
            {t('oauth2.signInWith', { name: p.name })}
          </Button>
        );
      })}
    </Stack>
  );
}
