import { afterEach, describe, expect, it } from 'vitest';
import { readingAppUrls } from './reading-apps';

afterEach(() => document.querySelector('base')?.remove());

describe('readingAppUrls', () => {
  it("builds every app's address from the page's origin and the context path the server injects", () => {
    const base = document.createElement('base');
    base.href = '/quire/';
    document.head.append(base);
    const server = `${window.location.origin}/quire`;
    const urls = readingAppUrls();
    expect(urls.opds1).toBe(`${server}/opds/v1.2/catalog`);
    expect(urls.opds2).toBe(`${server}/opds/v2/catalog`);
    expect(urls.koreader).toBe(`${server}/koreader`);
    expect(urls.kobo('abc123')).toBe(`${server}/kobo/abc123`);
  });

  it('has no trailing slash at the root', () => {
    expect(readingAppUrls().koreader).toBe(`${window.location.origin}/koreader`);
  });
});
