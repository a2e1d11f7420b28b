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

/** Chooses the interface language: remembered here, and on the server when someone is signed in. */
export function useChooseLocale(): (code: Locale) => void {
  const signedIn = !!useCurrentUser().data;
  const save = useSaveUserClientSettings();
  const { mutate } = save;
  return useCallback(
    (code: Locale) => {
      setPreference('locale', code);
      if (signedIn) mutate({ [LOCALE_SETTING]: { value: code } });
    },
    [signedIn, mutate],
  );
}

/**
 * Adopts the language the signed-in user chose on another browser; a user who has none on the server yet but chose
 * one in this browser (on the login screen, say) has that one saved.
 */
export function useLocaleFollowsUser(): void {
  const settings = useUserClientSettings();
  const { mutate } = useSaveUserClientSettings();
  const loaded = settings.isSuccess;
  const saved = settings.data?.[LOCALE_SETTING]?.value;
  useEffect(() => {
    if (!loaded) return;
    const local = getPreferences().locale;
    if (isLocale(saved)) {
      if (saved !== local) setPreference('locale', saved);
    } else if (isLocale(local)) mutate({ [LOCALE_SETTING]: { value: local } });
  }, [loaded, saved, mutate]);
}
