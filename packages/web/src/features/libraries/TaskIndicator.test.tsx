import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildLibrary, buildUser } from '../../test/fixtures';
import { taskQueueKey } from '../../api/events';
import { stubFetch } from '../account/fetch-stub';

afterEach(() => vi.unstubAllGlobals());

const status = { count: 5, countByType: { ScanLibrary: 1, AnalyzeBook: 4, HashBook: 0 } };

describe('TaskIndicator', () => {
  it('shows the pending count and the count per task type, then cancels queued tasks', async () => {
    const { requests } = stubFetch({ 'DELETE /api/v1/tasks': { json: 4 } });
    const { user } = renderScreen(null, {
      user: buildAdmin(),
      libraries: [buildLibrary()],
      route: '/dashboard',
      seed: [[taskQueueKey, status]],
    });
    await user.click(await screen.findByRole('button', { name: '5 pending tasks' }));
    const popover = await screen.findByRole('dialog', { name: '5 pending tasks' });
    const rows = within(within(popover).getByRole('list', { name: 'Pending tasks by type' })).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual(['Analyze book4', 'Scan library1']);
    await user.click(within(popover).getByRole('button', { name: 'Cancel queued tasks' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel queued tasks' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel tasks' }));
    expect(await screen.findByText('4 tasks cancelled')).toBeInTheDocument();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toContain('DELETE /api/v1/tasks');
    expect(screen.queryByRole('button', { name: /pending tasks?$/ })).not.toBeInTheDocument();
  });

  it('stays hidden with an empty queue and from non-admins', async () => {
    stubFetch({});
    const admin = renderScreen(null, {
      user: buildAdmin(),
      libraries: [buildLibrary()],
      route: '/dashboard',
      seed: [[taskQueueKey, { count: 0, countByType: {} }]],
    });
    await screen.findByRole('button', { name: 'Account menu' });
    expect(screen.queryByRole('button', { name: /pending task/ })).not.toBeInTheDocument();
    admin.unmount();
    renderScreen(null, {
      user: buildUser(),
      libraries: [buildLibrary()],
      route: '/dashboard',
      seed: [[taskQueueKey, status]],
    });
    await screen.findByRole('button', { name: 'Account menu' });
    expect(screen.queryByRole('button', { name: '5 pending tasks' })).not.toBeInTheDocument();
  });
});
