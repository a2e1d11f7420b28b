import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildLibrary, page } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { resetPreferences, getPreferences } from '../../app/preferences';

afterEach(() => {
  vi.unstubAllGlobals();
  resetPreferences();
});

const screenAt = (route: string) => renderScreen(null, { route, user: buildAdmin(), libraries: [buildLibrary()] });
const unknownHash = (hash: string, size: number | undefined, matchCount: number) => ({
  hash,
  ...(size === undefined ? {} : { size }),
  matchCount,
});

describe('new duplicate pages', () => {
  it('lists the unknown hashes 10 at a time, largest total first, and a decision sends the hash with its size', async () => {
    const net = stubFetch({
      'GET /api/v1/page-hashes/unknown': {
        json: page([unknownHash('aaa', 2048, 4), unknownHash('bbb', undefined, 2)]),
      },
      'PUT /api/v1/page-hashes': { status: 202 },
    });
    const { user } = screenAt('/media-management/duplicate-pages/unknown');
    const card = await screen.findByLabelText('Duplicate page aaa');
    expect(within(card).getByText('4 matches')).toBeInTheDocument();
    expect(within(card).getByText('Delete to save 8 kB')).toBeInTheDocument();
    const list = net.requests.find((r) => r.path === '/api/v1/page-hashes/unknown')!;
    expect(list.search).toContain('size=10');
    expect(list.search).toContain('sort=totalSize%2Cdesc');
    // Without a size, automatic deletion is not offered.
    const sizeless = screen.getByLabelText('Duplicate page bbb');
    expect(within(sizeless).getByText('Unknown size')).toBeInTheDocument();
    expect(within(sizeless).getByRole('button', { name: 'Auto delete' })).toBeDisabled();

    await user.click(within(card).getByRole('button', { name: 'Manual delete' }));
    await waitFor(() =>
      expect(net.requests.find((r) => r.method === 'PUT')?.body).toEqual({
        hash: 'aaa',
        size: 2048,
        action: 'DELETE_MANUAL',
      }),
    );
  });

  it('applies a decision to every hash left on the page after confirming, and remembers the page size', async () => {
    const net = stubFetch({
      'GET /api/v1/page-hashes/unknown': { json: page([unknownHash('aaa', 100, 3), unknownHash('bbb', undefined, 2)]) },
      'PUT /api/v1/page-hashes': { status: 202 },
    });
    const { user } = screenAt('/media-management/duplicate-pages/unknown');
    await screen.findByLabelText('Duplicate page aaa');
    // The sizeless hash cannot be deleted automatically: one hash for "auto delete remaining".
    await user.click(screen.getByRole('button', { name: 'Auto delete remaining (1)' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Auto delete remaining (1)' }));
    await waitFor(() =>
      expect(net.requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
        { hash: 'aaa', size: 100, action: 'DELETE_AUTO' },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Ignore remaining (2)' }));
    await waitFor(() => expect(net.requests.filter((r) => r.method === 'PUT')).toHaveLength(3));

    await user.click(screen.getByRole('combobox', { name: 'Per page' }));
    await user.click(await screen.findByRole('option', { name: '20' }));
    expect(getPreferences().duplicatesNewPageSize).toBe(20);
    await waitFor(() => expect(net.requests.at(-1)!.search).toContain('size=20'));
  });
});

describe('known duplicate pages', () => {
  it('filters by automatic and manual deletion at first, sorts by space saved, and deletes the matches of a manual one', async () => {
    const known = {
      hash: 'ccc',
      size: 1024,
      action: 'DELETE_MANUAL',
      deleteCount: 2,
      matchCount: 3,
      created: '2026-11-28T10:00:00',
      lastModified: '2026-11-28T10:00:00',
    };
    const net = stubFetch({
      'GET /api/v1/page-hashes': { json: page([known]) },
      'POST /api/v1/page-hashes/ccc/delete-all': { status: 202 },
    });
    const { user } = screenAt('/media-management/duplicate-pages/known');
    const card = await screen.findByLabelText('Duplicate page ccc');
    expect(within(card).getByText('Manual deletion')).toBeInTheDocument();
    expect(within(card).getByText('Deleted 2 times')).toBeInTheDocument();
    expect(within(card).getByText('Saved 2 kB')).toBeInTheDocument();
    expect(within(card).getByText('Delete to save 3 kB')).toBeInTheDocument();
    const list = net.requests.find((r) => r.path === '/api/v1/page-hashes')!;
    expect(list.search).toContain('action=DELETE_AUTO');
    expect(list.search).toContain('action=DELETE_MANUAL');
    expect(list.search).not.toContain('action=IGNORE');
    expect(list.search).toContain('sort=deleteSize%2Cdesc');

    await user.click(within(card).getByRole('button', { name: 'Delete matches' }));
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Delete matches' })).toBeDisabled());
    expect(net.requests.some((r) => r.method === 'POST' && r.path === '/api/v1/page-hashes/ccc/delete-all')).toBe(true);
  });
});
