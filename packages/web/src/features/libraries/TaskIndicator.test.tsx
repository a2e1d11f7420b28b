import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildLibrary, buildUser } from '../../test/fixtures';
import { taskQueueKey } from '../../api/events';
import { stubFetch } from '../account/fetch-stub';
import { ANNOUNCE_EVERY_MS } from './TaskIndicator';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

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

  it('tells screen readers the pending count politely, the latest one at most every 10 s, and when the queue empties', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubFetch({});
    const { queryClient } = renderScreen(null, {
      user: buildAdmin(),
      libraries: [buildLibrary()],
      route: '/dashboard',
      seed: [[taskQueueKey, status]],
    });
    await screen.findByRole('button', { name: '5 pending tasks' });
    // Asked afresh each time: the shell may mount the indicator again while its screen loads.
    const region = () => screen.getAllByRole('status').find((el) => !el.closest('.MuiSnackbar-root'))!;
    // Opening the screen says nothing.
    expect(region()).toHaveTextContent(/^$/);
    const queue = (count: number) => act(() => queryClient.setQueryData(taskQueueKey, { count, countByType: {} }));
    await queue(6);
    await act(() => vi.advanceTimersByTimeAsync(0));
    // The timer may fire as the clock moves on its own (shouldAdvanceTime), outside act: wait for the render.
    await waitFor(() => expect(region()).toHaveTextContent('6 pending tasks'));
    // A scan moves the count many times a second: nothing more is said until the pause is over, then the latest.
    await queue(7);
    await queue(8);
    await act(() => vi.advanceTimersByTimeAsync(ANNOUNCE_EVERY_MS / 2));
    expect(region()).toHaveTextContent('6 pending tasks');
    await act(() => vi.advanceTimersByTimeAsync(ANNOUNCE_EVERY_MS / 2));
    await waitFor(() => expect(region()).toHaveTextContent('8 pending tasks'));
    await queue(0);
    await act(() => vi.advanceTimersByTimeAsync(ANNOUNCE_EVERY_MS));
    await waitFor(() => expect(region()).toHaveTextContent('No pending tasks'));
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
