import type { LetterGroup } from '../../components/browse/AlphabeticalNav';
import { flagOf, useGlobalClientSettings, useUserClientSettings } from '../../api/client-settings';
import { parseSeriesGroups } from './series-groups';

/**
 * The UI settings (ui.md §13.3), kept as client settings under the reference's keys so that Komga's own web client
 * and Quire's read the same values. Each is read where it applies:
 * - `webui.oauth2.hide_login`, `webui.oauth2.auto_login` (global, readable signed out): the login page;
 * - `webui.series_groups` (global): the alphabetical navigation of the series browse;
 * - `webui.poster.stretch`, `webui.poster.blur_unread` (per user): every item card's poster.
 */
export const UI_SETTING_KEYS = {
  hideLogin: 'webui.oauth2.hide_login',
  autoLogin: 'webui.oauth2.auto_login',
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

/**
 * The login page's OAuth2 options: hide the e-mail and password fields (when there is a provider), and open the
 * only provider at once (when the fields are hidden and there is exactly one). Readable signed out.
 */
export function useOAuth2LoginSettings(): { hideLogin: boolean; autoLogin: boolean } {
  const settings = useGlobalClientSettings().data;
  return {
    hideLogin: flagOf(settings, UI_SETTING_KEYS.hideLogin),
    autoLogin: flagOf(settings, UI_SETTING_KEYS.autoLogin),
  };
}
