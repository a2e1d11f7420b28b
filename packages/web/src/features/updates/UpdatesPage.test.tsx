import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { ReleaseDto } from '@quire/api';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildLibrary } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';

afterEach(() => vi.unstubAllGlobals());

const release = (version: string, latest: boolean, description: string): ReleaseDto => ({
  version,
  releaseDate: '2026-11-21T00:00:00Z',
  url: latest ? `https://example.org/releases/${version}` : '',
  latest,
  preRelease: false,
  description,
});

const notes =
  '### Added\n\n- **Announcements** from a [feed](https://example.org/feed)\n\n' +
  '<script>window.__ran = true</script><img alt="pic" src="x" onerror="window.__ran = true">';

function serve(installed: string, releases: ReleaseDto[]) {
  return stubFetch({
    'GET /api/v1/releases': { json: releases },
    'GET /actuator/info': { json: { build: { version: installed } } },
    'GET /api/v1/announcements': { json: { version: 'https://jsonfeed.org/version/1', title: 'A', items: [] } },
  });
}

const screenAt = () =>
  renderScreen(null, { route: '/settings/updates', user: buildAdmin(), libraries: [buildLibrary()] });

describe('updates', () => {
  it('shows every release with its chips, date and notes rendered from Markdown, safely', async () => {
    serve('0.2.0', [release('0.2.0', true, notes), release('0.1.0', false, '')]);
    const { user } = screenAt();
    expect(await screen.findByText('The latest version of Quire is installed.')).toBeInTheDocument();
    const current = screen.getByRole('article', { name: '0.2.0' });
    expect(within(current).getByRole('link', { name: '0.2.0' })).toHaveAttribute(
      'href',
      'https://example.org/releases/0.2.0',
    );
    expect(within(current).getByText('Currently installed')).toBeInTheDocument();
    expect(within(current).getByText('Latest')).toBeInTheDocument();
    expect(within(current).getByText('November 21, 2026')).toBeInTheDocument();
    expect(within(current).getByRole('heading', { name: 'Added' })).toBeInTheDocument();
    expect(within(current).getByText('Announcements').tagName).toBe('STRONG');
    expect(within(current).getByRole('link', { name: 'feed' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(current.querySelector('script')).toBeNull();
    expect(within(current).getByRole('img', { name: 'pic' })).not.toHaveAttribute('onerror');
    expect((window as { __ran?: boolean }).__ran).toBeUndefined();
    const older = screen.getByRole('article', { name: '0.1.0' });
    expect(within(older).queryByText('Latest')).toBeNull();
    expect(within(older).getByText('No release notes.')).toBeInTheDocument();
    // Up to date: no dot on the drawer's entry.
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    expect(within(await screen.findByRole('link', { name: /Updates/ })).queryByText('Update available')).toBeNull();
  });

  it('says when updates are available, and the drawer flags it', async () => {
    serve('0.1.0', [release('0.2.0', true, 'New'), release('0.1.0', false, 'Old')]);
    const { user } = screenAt();
    expect(await screen.findByText('Updates are available.')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: '0.1.0' })).getByText('Currently installed')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: '0.2.0' })).queryByText('Currently installed')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    expect(
      await within(await screen.findByRole('link', { name: /Updates/ })).findByText('Update available'),
    ).toBeInTheDocument();
  });
});
