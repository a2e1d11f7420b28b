import type { LetterGroup } from '../../components/browse/AlphabeticalNav';
import { flagOf, useGlobalClientSettings, useUserClientSettings } from '../../api/client-settings';
import { AUTO_LOGIN_SETTING, HIDE_LOGIN_SETTING } from '../../api/oauth2';
import { parseSeriesGroups } from './series-groups';

/**
 * The UI settings (ui.md §13.3), kept as client settings under the reference's keys so that Komga's own web client
 * and Quire's read the same values. Each is read where it applies:
 * - `webui.oauth2.hide_login`, `webui.oauth2.auto_login` (global, readable signed out): the login page, through
 *   `useOAuth2LoginSettings()` in `api/oauth2.ts`, which waits for them before any automatic login;
 * - `webui.series_groups` (global): the alphabetical navigation of the series browse;
 * - `webui.poster.stretch`, `webui.poster.blur_unread` (per user): every item card's poster;
 * - `webui.locale` (per user, Quire's own): the interface language, in `i18n/userLocale.ts`.
 */
export const UI_SETTING_KEYS = {
  hideLogin: HIDE_LOGIN_SETTING,
  autoLogin: AUTO_LOGIN_SETTING,
  seriesGroups: 'webui.series_groups',
  posterStretch: 'webui.poster.stretch',
  posterBlurUnread: 'webui.poster.blur_unread',
} as const;

/** How the signed-in user wants posters shown: filling the card (cropped), and blurred while unread. */
export function usePosterSettings(): { stretch: boolean; blurUnread: boolean } {
  const settings = useUserClientSettings().data;
  return {
    stretch: flagOf(settings, UI_SETTING_KEYS.posterStretch),
    blurUnread: flagOf(settings, UI_SETTING_KEYS.posterBlurUnread),
  };
}

/** The letters of the series browse's alphabetical navigation. */
export function useSeriesGroups(): LetterGroup[] {
  const settings = useGlobalClientSettings().data;
  return parseSeriesGroups(settings?.[UI_SETTING_KEYS.seriesGroups]?.value).groups;
}
