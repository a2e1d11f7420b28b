import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { EditSeriesDialog } from './EditSeriesDialog';
import { buildSeries } from './test-data';
import { addChip, fill } from './test-utils';

afterEach(() => vi.unstubAllGlobals());
vi.setConfig({ testTimeout: 30_000 });

const referential = {
  'GET /api/v1/genres': { json: ['Fantasy', 'Science fiction'] },
  'GET /api/v1/tags': { json: ['space'] },
  'GET /api/v1/publishers': { json: ['Image'] },
  'GET /api/v1/languages': { json: ['en', 'ja'] },
  'GET /api/v1/sharing-labels': { json: ['kids'] },
};

function open(series = [buildSeries()], answers: Parameters<typeof stubFetch>[0] = {}) {
  const net = stubFetch({ ...referential, ...answers });
  const onClose = vi.fn();
  const app = renderScreen(<EditSeriesDialog open series={series} onClose={onClose} />, { user: buildAdmin() });
  return { ...app, ...net, onClose };
}

describe('EditSeriesDialog, one series', () => {
  it('shows every validation message of the general tab and sends nothing', async () => {
    const { user, requests } = open();
    const dialog = await screen.findByRole('dialog', { name: 'Edit series' });
    await user.clear(within(dialog).getByRole('textbox', { name: 'Title' }));
    await user.clear(within(dialog).getByRole('textbox', { name: 'Sort title' }));
    await fill(user, within(dialog).getByRole('spinbutton', { name: 'Age rating' }), '-1');
    expect(within(dialog).getByText('Age rating must be 0 or more')).toBeInTheDocument();
    await fill(user, within(dialog).getByRole('spinbutton', { name: 'Total book count' }), '0');
    expect(within(dialog).getByText('Total book count must be 1 or more')).toBeInTheDocument();
    await fill(user, within(dialog).getByRole('combobox', { name: 'Language' }), 'en_US');
    expect(within(dialog).getByText('Must be a valid IETF BCP 47 language tag')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveAccessibleDescription('Required');
    expect(within(dialog).getByRole('textbox', { name: 'Sort title' })).toHaveAccessibleDescription('Required');
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('names a valid language in the interface language and sends the changed fields with their locks', async () => {
    const series = buildSeries({ metadata: { readingDirection: 'RIGHT_TO_LEFT', ageRating: 12 } });
    const { user, requests, onClose } = open([series], { 'PATCH /api/v1/series/series-1/metadata': { status: 204 } });
    const dialog = await screen.findByRole('dialog', { name: 'Edit series' });
    await fill(user, within(dialog).getByRole('combobox', { name: 'Language' }), 'ja');
    expect(within(dialog).getByText('Japanese · IETF BCP 47 language tag')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: 'Reading direction' }));
    await user.click(await screen.findByRole('option', { name: 'None' }));
    await user.clear(within(dialog).getByRole('spinbutton', { name: 'Age rating' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Hiatus' }));
    expect(within(dialog).getByRole('button', { name: 'Lock Status' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      status: 'HIATUS',
      statusLock: true,
      language: 'ja',
      languageLock: true,
      readingDirection: null,
      readingDirectionLock: true,
      ageRating: null,
      ageRatingLock: true,
    });
  });

  it('requires both fields of an alternate title', async () => {
    const { user, requests, onClose } = open(undefined, { 'PATCH /api/v1/series/series-1/metadata': { status: 204 } });
    const dialog = await screen.findByRole('dialog', { name: 'Edit series' });
    await user.click(within(dialog).getByRole('tab', { name: 'Alternate titles' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add alternate title' }));
    await user.click(within(dialog).getByRole('tab', { name: 'General' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    // Saving jumps to the tab in error.
    const row = await within(dialog).findByRole('group', { name: 'Alternate titles 1' });
    expect(within(row).getAllByText('Required')).toHaveLength(2);
    expect(requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    await fill(user, within(row).getByRole('textbox', { name: 'Label' }), 'Japanese');
    await fill(user, within(row).getByRole('textbox', { name: 'Title' }), 'サーガ');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      alternateTitles: [{ label: 'Japanese', title: 'サーガ' }],
      alternateTitlesLock: true,
    });
  });

  it('suggests genres and adds a sharing label', async () => {
    const { user, requests, onClose } = open(undefined, { 'PATCH /api/v1/series/series-1/metadata': { status: 204 } });
    const dialog = await screen.findByRole('dialog', { name: 'Edit series' });
    await user.click(within(dialog).getByRole('tab', { name: 'Tags' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Genres' }));
    await user.click(await screen.findByRole('option', { name: 'Science fiction' }));
    await user.click(within(dialog).getByRole('tab', { name: 'Sharing' }));
    await addChip(user, within(dialog).getByRole('combobox', { name: 'Sharing labels' }), 'teens');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      genres: ['Science fiction'],
      genresLock: true,
      sharingLabels: ['teens'],
      sharingLabelsLock: true,
    });
  });
});

describe('EditSeriesDialog, several series', () => {
  const series = [
    buildSeries({ id: 's1', metadata: { title: 'A', status: 'ENDED', publisher: 'Image' } }),
    buildSeries({ id: 's2', metadata: { title: 'B', status: 'ONGOING', publisher: 'Image' } }),
  ];

  it('shows differing values as mixed, hides single-series fields, and patches each series', async () => {
    const { user, requests, onClose } = open(series, {
      'PATCH /api/v1/series/s1/metadata': { status: 204 },
      'PATCH /api/v1/series/s2/metadata': { status: 204 },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Edit 2 series' });
    expect(within(dialog).queryByRole('textbox', { name: 'Title' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('tab', { name: 'Poster' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Status' })).toHaveTextContent('Mixed');
    expect(within(dialog).getByRole('combobox', { name: 'Publisher' })).toHaveValue('Image');
    await user.click(within(dialog).getByRole('tab', { name: 'Tags' }));
    expect(
      within(dialog).getByText(/This will replace the existing genres and tags of each series/),
    ).toBeInTheDocument();
    await addChip(user, within(dialog).getByRole('combobox', { name: 'Tags' }), 'space');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const patches = requests.filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.path)).toEqual(['/api/v1/series/s1/metadata', '/api/v1/series/s2/metadata']);
    patches.forEach((p) => expect(p.body).toEqual({ tags: ['space'], tagsLock: true }));
  });
});
