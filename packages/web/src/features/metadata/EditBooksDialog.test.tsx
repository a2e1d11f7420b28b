import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { EditBooksDialog } from './EditBooksDialog';
import { buildBook } from './test-data';
import { addChip, fill } from './test-utils';

afterEach(() => vi.unstubAllGlobals());
vi.setConfig({ testTimeout: 30_000 });

const referential = {
  'GET /api/v1/tags': { json: ['fantasy', 'space'] },
  'GET /api/v1/authors/names': { json: ['Brian K. Vaughan'] },
  'GET /api/v1/books/book-1/thumbnails': { json: [] },
};

function open(books = [buildBook()], answers: Parameters<typeof stubFetch>[0] = {}) {
  const net = stubFetch({ ...referential, ...answers });
  const onClose = vi.fn();
  const app = renderScreen(<EditBooksDialog open books={books} onClose={onClose} />, { user: buildAdmin() });
  return { ...app, ...net, onClose };
}

describe('EditBooksDialog, one book', () => {
  it('locks a field the user changes and sends only that field with its lock', async () => {
    const { user, requests, onClose } = open(undefined, { 'PATCH /api/v1/books/book-1/metadata': { status: 204 } });
    const dialog = await screen.findByRole('dialog', { name: 'Edit book' });
    const lock = within(dialog).getByRole('button', { name: 'Lock Title' });
    expect(lock).toHaveAttribute('aria-pressed', 'false');
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await fill(user, title, 'A new start');
    expect(lock).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const patch = requests.filter((r) => r.method === 'PATCH');
    expect(patch).toEqual([
      expect.objectContaining({
        path: '/api/v1/books/book-1/metadata',
        body: { title: 'A new start', titleLock: true },
      }),
    ]);
    expect(await screen.findByText('Chapter One updated')).toBeInTheDocument();
  });
});

describe('EditBooksDialog validation', () => {
  it('refuses a bad ISBN, date, empty title and bad sort number, and sends nothing', async () => {
    const { user, requests } = open();
    const dialog = await screen.findByRole('dialog', { name: 'Edit book' });
    await fill(user, within(dialog).getByRole('textbox', { name: 'ISBN' }), '978-0-306-40615-8');
    expect(within(dialog).getByText('Must be a valid ISBN 13')).toBeInTheDocument();
    await fill(user, within(dialog).getByRole('textbox', { name: 'Release date' }), '2024-13-01');
    expect(within(dialog).getByText('Must be a valid date in YYYY-MM-DD format')).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('textbox', { name: 'Title' }));
    const sort = within(dialog).getByRole('textbox', { name: 'Sort number' });
    await user.clear(sort);
    await fill(user, sort, 'one');
    expect(within(dialog).getByText('Must be a number')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveAccessibleDescription('Required');
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('accepts a valid ISBN-13 with hyphens and a picked date', async () => {
    const { user, requests, onClose } = open(undefined, { 'PATCH /api/v1/books/book-1/metadata': { status: 204 } });
    const dialog = await screen.findByRole('dialog', { name: 'Edit book' });
    await fill(user, within(dialog).getByRole('textbox', { name: 'ISBN' }), '978-0-306-40615-7');
    expect(within(dialog).queryByText('Must be a valid ISBN 13')).not.toBeInTheDocument();
    await fill(user, within(dialog).getByRole('textbox', { name: 'Release date' }), '2024-02-10');
    await user.click(within(dialog).getByRole('button', { name: 'Choose a date' }));
    const calendar = await screen.findByRole('dialog', { name: 'Choose a date' });
    await user.click(within(calendar).getByRole('button', { name: /February 14, 2024/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      isbn: '978-0-306-40615-7',
      isbnLock: true,
      releaseDate: '2024-02-14',
      releaseDateLock: true,
    });
  });

  it('shows the server refusal under the field it concerns and stays open', async () => {
    const { user, onClose } = open(undefined, {
      'PATCH /api/v1/books/book-1/metadata': {
        status: 400,
        json: { violations: [{ fieldName: 'updateMetadata.isbn', message: 'ISBN already used by another book' }] },
      },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Edit book' });
    await fill(user, within(dialog).getByRole('textbox', { name: 'ISBN' }), '9780306406157');
    await user.click(within(dialog).getByRole('tab', { name: 'Tags' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    // The dialog brings the field's tab back.
    expect(await within(dialog).findByText('ISBN already used by another book')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'ISBN' })).toHaveAccessibleDescription(
      'ISBN already used by another book',
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('sends only a toggled lock when no value changed', async () => {
    const { user, requests, onClose } = open([buildBook({ metadata: { summaryLock: true } })], {
      'PATCH /api/v1/books/book-1/metadata': { status: 204 },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Edit book' });
    const lock = within(dialog).getByRole('button', { name: 'Lock Summary' });
    expect(lock).toHaveAttribute('aria-pressed', 'true');
    await user.click(lock);
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ summaryLock: false });
  });

  it('closes without a request when nothing changed', async () => {
    const { user, requests, onClose } = open();
    const dialog = await screen.findByRole('dialog', { name: 'Edit book' });
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(onClose).toHaveBeenCalled();
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('EditBooksDialog authors and links', () => {
  it('edits authors by role with one lock, and refuses a duplicate custom role', async () => {
    const book = buildBook({ metadata: { authors: [{ name: 'Fiona Staples', role: 'penciller' }] } });
    const { user, requests, onClose } = open([book], { 'PATCH /api/v1/books/book-1/metadata': { status: 204 } });
    const dialog = await screen.findByRole('dialog', { name: 'Edit book' });
    await user.click(within(dialog).getByRole('tab', { name: 'Authors' }));
    expect(within(dialog).getByRole('button', { name: 'Fiona Staples' })).toBeInTheDocument();
    const lock = within(dialog).getByRole('button', { name: 'Lock Authors' });
    await addChip(user, within(dialog).getByRole('combobox', { name: 'Writers' }), 'Brian K. Vaughan');
    expect(lock).toHaveAttribute('aria-pressed', 'true');
    const writers = within(dialog).getByRole('combobox', { name: 'Writers' });
    await addChip(user, writers, 'brian k. vaughan');
    expect(within(dialog).getByText('Already exists')).toBeInTheDocument();

    const role = within(dialog).getByRole('textbox', { name: 'Custom role' });
    await user.click(within(dialog).getByRole('button', { name: 'Add custom role' }));
    expect(within(dialog).getByText('Required')).toBeInTheDocument();
    await fill(user, role, 'Penciller');
    await user.click(within(dialog).getByRole('button', { name: 'Add custom role' }));
    expect(within(dialog).getAllByText('Already exists').length).toBeGreaterThan(0);
    await user.clear(role);
    await addChip(user, role, 'Plotter');
    await addChip(user, within(dialog).getByRole('combobox', { name: 'plotter' }), 'Someone Else');

    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      authors: [
        { name: 'Brian K. Vaughan', role: 'writer' },
        { name: 'Fiona Staples', role: 'penciller' },
        { name: 'Someone Else', role: 'plotter' },
      ],
      authorsLock: true,
    });
  });

  it('refuses an author typed again in the same role under that field, instead of dropping it silently', async () => {
    const book = buildBook({ metadata: { authors: [{ name: 'Fiona Staples', role: 'penciller' }] } });
    const { user, requests, onClose } = open([book], { 'PATCH /api/v1/books/book-1/metadata': { status: 204 } });
    const dialog = await screen.findByRole('dialog', { name: 'Edit book' });
    await user.click(within(dialog).getByRole('tab', { name: 'Authors' }));
    const pencillers = within(dialog).getByRole('combobox', { name: 'Pencillers' });
    await addChip(user, pencillers, 'Fiona Staples');
    expect(pencillers).toHaveAccessibleDescription('Already exists');
    // What was typed stays, so the user sees what was refused.
    expect(pencillers).toHaveValue('Fiona Staples');
    expect(within(dialog).getAllByRole('button', { name: 'Fiona Staples' })).toHaveLength(1);
    await user.clear(pencillers);
    expect(pencillers).not.toHaveAccessibleDescription('Already exists');
    // Leaving the field (autoSelect) gives the same answer.
    await fill(user, pencillers, 'Fiona Staples');
    await user.click(within(dialog).getByRole('combobox', { name: 'Writers' }));
    expect(pencillers).toHaveAccessibleDescription('Already exists');

    await user.clear(pencillers);
    await addChip(user, within(dialog).getByRole('combobox', { name: 'Writers' }), 'Fiona Staples');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      authors: [
        { name: 'Fiona Staples', role: 'writer' },
        { name: 'Fiona Staples', role: 'penciller' },
      ],
      authorsLock: true,
    });
  });

  it('checks links: label required and unique, URL valid and http(s)', async () => {
    const { user, requests, onClose } = open(undefined, { 'PATCH /api/v1/books/book-1/metadata': { status: 204 } });
    const dialog = await screen.findByRole('dialog', { name: 'Edit book' });
    await user.click(within(dialog).getByRole('tab', { name: 'Links' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add link' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add link' }));
    const [first, second] = within(dialog).getAllByRole('group');
    await fill(user, within(first!).getByRole('textbox', { name: 'URL' }), 'not a url');
    expect(within(first!).getByText('Must be a valid URL')).toBeInTheDocument();
    expect(within(first!).getByText('Required')).toBeInTheDocument();
    await fill(user, within(second!).getByRole('textbox', { name: 'URL' }), 'ftp://example.org');
    expect(within(second!).getByText('Must be http or https')).toBeInTheDocument();
    await fill(user, within(first!).getByRole('textbox', { name: 'Label' }), 'Home');
    await fill(user, within(second!).getByRole('textbox', { name: 'Label' }), 'home');
    expect(within(second!).getByText('Already exists')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(requests.filter((r) => r.method === 'PATCH')).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Remove link 2' }));
    const url = within(dialog).getByRole('textbox', { name: 'URL' });
    await user.clear(url);
    await fill(user, url, 'https://example.org/saga');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      links: [{ label: 'Home', url: 'https://example.org/saga' }],
      linksLock: true,
    });
  });
});

describe('EditBooksDialog poster', () => {
  it('uploads a chosen image, selected, before the metadata', async () => {
    const { user, requests, onClose, fetchMock } = open(undefined, {
      'POST /api/v1/books/book-1/thumbnails': { json: { id: 't-2', selected: true } },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Edit book' });
    await user.click(within(dialog).getByRole('tab', { name: 'Poster' }));
    expect(await within(dialog).findByText('No posters yet')).toBeInTheDocument();
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['png'], 'cover.png', { type: 'image/png' }));
    const card = within(dialog).getByRole('listitem', { name: 'Poster 1' });
    expect(within(card).getByRole('button', { name: 'Selected' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v1/books/book-1/thumbnails',
    ]);
    const form = fetchMock.mock.calls.map(([, init]) => init?.body).find((b) => b instanceof FormData) as FormData;
    expect(form.get('selected')).toBe('true');
    expect((form.get('file') as File).name).toBe('cover.png');
  });

  it('selects a stored poster and deletes an uploaded one', async () => {
    const stored = [
      {
        id: 't-1',
        bookId: 'book-1',
        type: 'GENERATED',
        selected: true,
        mediaType: 'image/jpeg',
        fileSize: 2048,
        width: 300,
        height: 450,
      },
      {
        id: 't-2',
        bookId: 'book-1',
        type: 'USER_UPLOADED',
        selected: false,
        mediaType: 'image/png',
        fileSize: 4096,
        width: 600,
        height: 900,
      },
      {
        id: 't-3',
        bookId: 'book-1',
        type: 'USER_UPLOADED',
        selected: false,
        mediaType: 'image/png',
        fileSize: 4096,
        width: 600,
        height: 900,
      },
    ];
    const { user, requests, onClose } = open(undefined, {
      'GET /api/v1/books/book-1/thumbnails': { json: stored },
      'PUT /api/v1/books/book-1/thumbnails/t-2/selected': { status: 204 },
      'DELETE /api/v1/books/book-1/thumbnails/t-3': { status: 204 },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Edit book' });
    await user.click(within(dialog).getByRole('tab', { name: 'Poster' }));
    const generated = await within(dialog).findByRole('listitem', { name: 'Poster 1' });
    expect(within(generated).getByRole('img', { name: 'Generated artwork' })).toBeInTheDocument();
    expect(within(generated).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await user.click(
      within(within(dialog).getByRole('listitem', { name: 'Poster 2' })).getByRole('button', {
        name: 'Mark as selected',
      }),
    );
    const third = within(dialog).getByRole('listitem', { name: 'Poster 3' });
    await user.click(within(third).getByRole('button', { name: 'Delete' }));
    expect(within(third).getByRole('button', { name: 'To be deleted' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
      'PUT /api/v1/books/book-1/thumbnails/t-2/selected',
      'DELETE /api/v1/books/book-1/thumbnails/t-3',
    ]);
  });
});

describe('EditBooksDialog, several books', () => {
  const books = ['b1', 'b2', 'b3'].map((id, i) =>
    buildBook({ id, metadata: { title: `Book ${i + 1}`, tags: i === 0 ? ['old'] : [], tagsLock: i === 0 } }),
  );

  it('warns that tags are replaced and sends one batch request for every book', async () => {
    const { user, requests, onClose } = open(books, { 'PATCH /api/v1/books/metadata': { status: 204 } });
    const dialog = await screen.findByRole('dialog', { name: 'Edit 3 books' });
    await user.click(within(dialog).getByRole('tab', { name: 'Authors' }));
    expect(within(dialog).getByText(/This will replace the existing authors of each book/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('tab', { name: 'Tags' }));
    expect(
      within(dialog).getByText(
        'You are editing the tags of 3 books. This will replace the existing tags of each book.',
      ),
    ).toBeInTheDocument();
    const lock = within(dialog).getByRole('button', { name: 'Lock Tags' });
    expect(lock).toHaveAttribute('aria-pressed', 'mixed');
    const tags = within(dialog).getByRole('combobox', { name: 'Tags' });
    expect(tags).toHaveAttribute('placeholder', 'Mixed');
    await addChip(user, tags, 'space');
    expect(lock).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = { tags: ['space'], tagsLock: true };
    expect(requests.filter((r) => r.method === 'PATCH')).toEqual([
      expect.objectContaining({ path: '/api/v1/books/metadata', body: { b1: body, b2: body, b3: body } }),
    ]);
  });

  it('edits numbers in the table: copy from sort number, shift sort numbers, lock a column, one request', async () => {
    const table = [1, 2, 3].map((n) =>
      buildBook({
        id: `t${n}`,
        url: `/data/Saga/Saga ${n}.cbz`,
        metadata: { title: `Saga ${n}`, number: String(n), numberSort: n, isbnLock: n === 1 },
      }),
    );
    const { user, requests, onClose } = open(table, { 'PATCH /api/v1/books/metadata': { status: 204 } });
    const dialog = await screen.findByRole('dialog', { name: 'Edit 3 books' });
    await user.click(within(dialog).getByRole('button', { name: 'Increment all by 1' }));
    await user.click(within(dialog).getByRole('button', { name: 'Copy from sort number' }));
    expect(within(dialog).getByRole('textbox', { name: 'Number · Saga/Saga 3.cbz' })).toHaveValue('4');
    const isbnLocks = within(dialog).getByRole('button', { name: 'Lock all: ISBN' });
    expect(isbnLocks).toHaveAttribute('aria-pressed', 'mixed');
    await user.click(isbnLocks);
    const title = within(dialog).getByRole('textbox', { name: 'Title · Saga/Saga 2.cbz' });
    await user.clear(title);
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(within(dialog).getByText('Required')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    await fill(user, title, 'Saga two');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const numbers = (n: number) => ({
      number: String(n + 1),
      numberLock: true,
      numberSort: n + 1,
      numberSortLock: true,
    });
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      t1: numbers(1),
      t2: { title: 'Saga two', titleLock: true, ...numbers(2), isbnLock: true },
      t3: { ...numbers(3), isbnLock: true },
    });
  });
});
