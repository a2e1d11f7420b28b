import { describe, expect, it, vi } from 'vitest';
import { finishOAuth2Popup } from './oauth2Popup';

/** A window as finishOAuth2Popup sees it: its URL, its opener, close(). */
function popupAt(href: string, opener: { location: { origin: string; href: string } } | null) {
  const url = new URL(href);
  return {
    location: { href: url.href, search: url.search, origin: url.origin },
    opener,
    document,
    close: vi.fn(),
  } as unknown as Window & { close: ReturnType<typeof vi.fn> };
}

describe('the OAuth2 popup coming back (server_redirect=Y)', () => {
  it('sends its opener to the app on success and closes', () => {
    const opener = { location: { origin: 'http://quire.test', href: 'http://quire.test/login' } };
    const popup = popupAt('http://quire.test/?server_redirect=Y', opener);
    expect(finishOAuth2Popup(popup)).toBe(true);
    expect(opener.location.href).toBe('http://quire.test/');
    expect(popup.close).toHaveBeenCalled();
  });

  it('sends its opener to the login page with the error on failure', () => {
    const opener = { location: { origin: 'http://quire.test', href: 'http://quire.test/login' } };
    const popup = popupAt('http://quire.test/login?server_redirect=Y&error=ERR_1026', opener);
    expect(finishOAuth2Popup(popup)).toBe(true);
    expect(opener.location.href).toBe('http://quire.test/login?server_redirect=Y&error=ERR_1026');
  });

  it('is an ordinary page without an opener, or with one of another site', () => {
    expect(finishOAuth2Popup(popupAt('http://quire.test/?server_redirect=Y', null))).toBe(false);
    const foreign = { location: { origin: 'http://evil.test', href: 'http://evil.test/' } };
    expect(finishOAuth2Popup(popupAt('http://quire.test/?server_redirect=Y', foreign))).toBe(false);
    expect(foreign.location.href).toBe('http://evil.test/');
  });
});
