import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { JsonFeedDto } from '@quire/api';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildLibrary } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';

afterEach(() => vi.unstubAllGlobals());

const hostile = {
  id: 'hostile',
  url: 'https://example.org/news/hostile',
  title: 'An item with a script',
  content_html:
    '<p>Read the <a href="https://example.org/notes">notes</a>, or <a href="javascript:alert(1)">this</a>.</p>' +
    '<script>window.__ran = true</script><img alt="pic" src="x" onerror="window.__ran = true">' +
    '<style>body { display: none }</style><p style="position:fixed">styled</p>',
  date_modified: '2026-11-20T10:00:00Z',
  tags: [],
  _komga: { read: false },
};
const plain = { id: 'plain', title: 'Plain news', summary: 'Just a summary', tags: [], _komga: { read: false } };
const old = { id: 'old', title: 'Old news', content_html: '<p>Seen</p>', tags: [], _komga: { read: true } };

const feedOf = (items: JsonFeedDto['items']): JsonFeedDto => ({
  version: 'https://jsonfeed.org/version/1',
  title: 'News',
  items,
});

function serve(items: JsonFeedDto['items']) {
  const answers: Record<string, { status?: number; json?: unknown }> = {
    'GET /api/v1/announcements': { json: feedOf(items) },
    'PUT /api/v1/announcements': { status: 204 },
    'GET /api/v1/releases': { json: [] },
    'GET /actuator/info': { json: { build: { version: '0.1.0' } } },
  };
  const net = stubFetch(answers);
  /** What the server answers from now on (after a PUT, say). */
  const answer = (next: JsonFeedDto['items']) => (answers['GET /api/v1/announcements'] = { json: feedOf(next) });
  return { ...net, answer };
}

const screenAt = () =>
  renderScreen(null, { route: '/settings/announcements', user: buildAdmin(), libraries: [buildLibrary()] });

describe('announcements', () => {
  it('shows each item with its title, date and sanitised content: no script, no handler, links in a new tab', async () => {
    serve([hostile, plain, old]);
    screenAt();
    const item = await screen.findByRole('article', { name: 'An item with a script' });
    expect(within(item).getByRole('heading', { level: 2 })).toHaveTextContent('An item with a script');
    const title = within(item).getByRole('link', { name: 'An item with a script' });
    expect(title).toHaveAttribute('href', 'https://example.org/news/hostile');
    expect(title).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(item).getByText('November 20, 2026')).toBeInTheDocument();
    const notes = within(item).getByRole('link', { name: 'notes' });
    expect(notes).toHaveAttribute('target', '_blank');
    expect(notes).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(item).getByText('this')).not.toHaveAttribute('href');
    expect(item.querySelector('script, style')).toBeNull();
    expect(within(item).getByRole('img', { name: 'pic' })).not.toHaveAttribute('onerror');
    expect(within(item).getByText('styled')).not.toHaveAttribute('style');
    expect((window as { __ran?: boolean }).__ran).toBeUndefined();
    // An item without HTML shows its summary.
    expect(within(screen.getByRole('article', { name: 'Plain news' })).getByText('Just a summary')).toBeInTheDocument();
    expect(screen.getByText('2 unread announcements')).toBeInTheDocument();
    // A read item has no button to mark it.
    expect(
      within(screen.getByRole('article', { name: 'Old news' })).queryByRole('button', { name: 'Mark as read' }),
    ).toBeNull();
  });

  it('marks one item read, then all, and the drawer counts what is left', async () => {
    const net = serve([hostile, plain, old]);
    const { user } = screenAt();
    const item = await screen.findByRole('article', { name: 'Plain news' });
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    const entry = await screen.findByRole('link', { name: /Announcements/ });
    expect(await within(entry).findByText('2 unread')).toBeInTheDocument();
    await user.keyboard('{Escape}');

    net.answer([hostile, { ...plain, _komga: { read: true } }, old]);
    // Once the drawer has closed, the page is reachable again.
    await user.click(await within(item).findByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(screen.getByText('1 unread announcement')).toBeInTheDocument());
    expect(net.requests.filter((r) => r.method === 'PUT')).toEqual([
      expect.objectContaining({ path: '/api/v1/announcements', body: ['plain'] }),
    ]);

    net.answer([{ ...hostile, _komga: { read: true } }, { ...plain, _komga: { read: true } }, old]);
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByText('0 unread announcements')).toBeInTheDocument());
    expect(net.requests.filter((r) => r.method === 'PUT').at(-1)!.body).toEqual(['hostile']);
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    expect(within(await screen.findByRole('link', { name: /Announcements/ })).queryByText(/unread/)).toBeNull();
  });

  it('links a title only to an http(s) address', async () => {
    serve([{ id: 'js', url: 'javascript:alert(1)', title: 'Sneaky', tags: [], _komga: { read: false } }]);
    screenAt();
    const item = await screen.findByRole('article', { name: 'Sneaky' });
    expect(within(item).getByRole('heading', { name: 'Sneaky' })).toBeInTheDocument();
    expect(within(item).queryByRole('link')).toBeNull();
  });

  it('says how announcements come when there are none', async () => {
    serve([]);
    screenAt();
    expect(await screen.findByText(/No announcements\. .*QUIRE_ANNOUNCEMENTS_URL/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });
});
