import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../../test/render';
import { buildAdmin, buildLibrary } from '../../../test/fixtures';
import { stubFetch } from '../../account/fetch-stub';

afterEach(() => vi.unstubAllGlobals());

describe('tasks', () => {
  it('counts waiting and running tasks per type', async () => {
    stubFetch({
      'GET /api/v1/tasks/overview': {
        json: { queued: 5, running: 1, byType: [{ type: 'AnalyzeBook', queued: 5, running: 1 }] },
      },
    });
    renderScreen(null, { route: '/settings/tasks', user: buildAdmin(), libraries: [buildLibrary()] });
    expect(await screen.findByText('5 waiting, 1 running')).toBeInTheDocument();
    const row = screen.getByRole('rowheader', { name: 'Analyze book' }).closest('tr')!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['5', '1']);
  });
});
