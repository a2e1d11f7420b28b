import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { EditOneshotDialog } from './EditOneshotDialog';
import { buildBook, buildSeries } from './test-data';
import { addChip, fill } from './test-utils';

afterEach(() => vi.unstubAllGlobals());
vi.setConfig({ testTimeout: 30_000 });

describe('EditOneshotDialog', () => {
  const series = buildSeries({
    id: 's1',
    oneshot: true,
    booksCount: 1,
    metadata: { title: 'Solo', titleSort: 'Solo' },
  });
  const book = buildBook({ id: 'b1', seriesId: 's1', oneshot: true, metadata: { title: 'Solo' } });

  it('writes title and summary to book and series, and each other field where it lives', async () => {
    const { requests } = stubFetch({
      'PATCH /api/v1/series/s1/metadata': { status: 204 },
      'PATCH /api/v1/books/b1/metadata': { status: 204 },
    });
    const onClose = vi.fn();
    const { user } = renderScreen(<EditOneshotDialog open series={series} book={book} onClose={onClose} />, {
      user: buildAdmin(),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Edit one-shot' });
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await fill(user, title, 'Solo, revised');
    await fill(user, within(dialog).getByRole('combobox', { name: 'Publisher' }), 'Image');
    await fill(user, within(dialog).getByRole('textbox', { name: 'ISBN' }), '9780306406157');
    await user.click(within(dialog).getByRole('tab', { name: 'Tags' }));
    await addChip(user, within(dialog).getByRole('combobox', { name: 'Genres' }), 'Drama');
    await addChip(user, within(dialog).getByRole('combobox', { name: 'Tags' }), 'award');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const patches = requests.filter((r) => r.method === 'PATCH');
    expect(patches).toEqual([
      expect.objectContaining({
        path: '/api/v1/series/s1/metadata',
        body: {
          title: 'Solo, revised',
          titleLock: true,
          publisher: 'Image',
          publisherLock: true,
          genres: ['Drama'],
          genresLock: true,
        },
      }),
      expect.objectContaining({
        path: '/api/v1/books/b1/metadata',
        body: {
          title: 'Solo, revised',
          titleLock: true,
          isbn: '9780306406157',
          isbnLock: true,
          tags: ['award'],
          tagsLock: true,
        },
      }),
    ]);
  });
});
