import { useCallback, useEffect } from 'react';
import { useCurrentUser } from '../api/auth';
import { useSaveUserClientSettings, useUserClientSettings } from '../api/client-settings';
import { getPreferences, setPreference } from '../app/preferences';
import { isLocale, type Locale } from './index';

/**
 * The user's language is kept among their client settings (api.md §9.5) under this key, so it follows them to
 * another browser; the browser also remembers it (preferences) for the login screen and the first paint.
 */
export const LOCALE_SETTING = 'webui.locale';

/** A language chosen while signed out (on the login screen): saved for the user who then logs in, not replaced. */
const CHOSEN_SIGNED_OUT = 'quire.localeChosenSignedOut';

/** Chooses the interface language: remembered here, and on the server when someone is signed in. */
export function useChooseLocale(): (code: Locale) => void {
  const signedIn = !!useCurrentUser().data;
  const save = useSaveUserClientSettings();
  const { mutate } = save;
  return useCallback(
    (code: Locale) => {
      setPreference('locale', code);
      if (signedIn) mutate({ [LOCALE_SETTING]: { value: code } });
      else sessionStorage.setItem(CHOSEN_SIGNED_OUT, code);
    },
    [signedIn, mutate],
  );
}

/**
 * Adopts the language the signed-in user chose on another browser; a language just chosen on the login screen, or
 * one chosen in this browser by a user who has none on the server yet, is saved instead.
 */
export function useLocaleFollowsUser(): void {
  const settings = useUserClientSettings();
  const { mutate } = useSaveUserClientSettings();
  const loaded = settings.isSuccess;
  const saved = settings.data?.[LOCALE_SETTING]?.value;
  useEffect(() => {
    if (!loaded) return;
    const local = getPreferences().locale;
    const justChosen = sessionStorage.getItem(CHOSEN_SIGNED_OUT);
    if (justChosen !== null) {
      sessionStorage.removeItem(CHOSEN_SIGNED_OUT);
      if (isLocale(local) && local !== saved) mutate({ [LOCALE_SETTING]: { value: local } });
    } else if (isLocale(saved)) {
      if (saved !== local) setPreference('locale', saved);
    } else if (isLocale(local)) mutate({ [LOCALE_SETTING]: { value: local } });
  }, [loaded, saved, mutate]);
}
