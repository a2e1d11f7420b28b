import { authorizationUrl } from '../../api/oauth2';

/** The popup's window name, as the reference's web client names it. */
export const POPUP_NAME = 'oauth2Login';
const SIZE = 600;

/** Opens the provider's login in a centred 600×600 popup (ui.md §1.1); the server takes it from there. */
export function openOAuth2Popup(registrationId: string): void {
  const left = window.screenX + (window.outerWidth - SIZE) / 2;
  const top = window.screenY + (window.outerHeight - SIZE) / 2;
  window.open(
    authorizationUrl(registrationId),
    POPUP_NAME,
    `popup=yes,width=${SIZE},height=${SIZE},left=${Math.round(left)},top=${Math.round(top)}`,
  );
}

/**
 * In the popup, once the server sent it back with `?server_redirect=Y` (spec.md §1): the window that opened it goes
 * to the app's root on success, or to this URL (the login page with `?error=`) on failure, so the session cookie the
 * popup received is used there; then the popup closes. True when this window is such a popup (render nothing).
 */
export function finishOAuth2Popup(win: Window = window): boolean {
  const params = new URLSearchParams(win.location.search);
  if (params.get('server_redirect') !== 'Y' || !win.opener || win.opener === win) return false;
  try {
    const opener = win.opener as Window;
    // Same origin only: a popup opened by another site must not steer it.
    if (opener.location.origin !== win.location.origin) return false;
    opener.location.href = params.has('error') ? win.location.href : `${win.location.origin}${baseHref(win)}`;
  } catch {
    return false;
  }
  win.close();
  return true;
}

/** The app's root path ('/' or '/quire/'), from the `<base>` the server injects. */
function baseHref(win: Window): string {
  const base = win.document.querySelector('base')?.getAttribute('href') ?? '/';
  return new URL(base, win.location.origin).pathname;
}
