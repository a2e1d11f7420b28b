import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { ReadListRequestMatchDto } from '@quire/api';
import { MAX_READ_LIST_IMPORT_BYTES } from '@quire/api/constants';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildBook, buildLibrary, buildReadList, buildUser, page } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';

afterEach(() => vi.unstubAllGlobals());

const MATCH = 'POST /api/v1/readlists/match/comicrack';
const secretEmpire = { seriesId: 'se', title: 'Secret Empire', releaseDate: '2017-05-03' };
const book = (id: string, number: string) => ({ bookId: id, number, title: `Secret Empire ${number}` });

/** Row 1 matches, row 2 finds nothing, row 3 asks for row 1's book again. */
const answer: ReadListRequestMatchDto = {
  readListMatch: { name: 'Secret Empire', errorCode: '' },
  requests: [
    {
      request: { series: ['Secret Empire (2017)', 'Secret Empire'], number: '1' },
      matches: [{ series: secretEmpire, books: [book('b1', '01')] }],
    },
    { request: { series: ['Amazing Spider-Man (2015)', 'Amazing Spider-Man'], number: '29' }, matches: [] },
    {
      request: { series: ['Secret Empire'], number: '01' },
      matches: [{ series: secretEmpire, books: [book('b1', '01')] }],
    },
  ],
  errorCode: '',
};

const cblFile = (size?: number) => {
  const file = new File(['<ReadingList/>'], 'Secret Empire.cbl', { type: 'application/xml' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
};

/** The screen, once its lazy chunk has loaded. */
async function openScreen() {
  const rendered = renderScreen(null, {
    route: '/import/readlist',
    user: buildAdmin(),
    libraries: [buildLibrary({ id: 'lib-1', name: 'Comics' })],
  });
  await screen.findByRole('heading', { name: 'Import read list' });
  const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
  return { ...rendered, fileInput };
}

const rowOf = (position: number) => screen.getByRole('row', { name: new RegExp(`^Row ${position}:`) });

describe('read list import', () => {
  it('flags a file of 10 MB or more before sending it', async () => {
    const net = stubFetch({ 'GET /api/v1/readlists': { json: page([]) } });
    const { user, fileInput } = await openScreen();
    expect(screen.getByText(/You can import existing ComicRack reading lists/)).toBeInTheDocument();
    await user.upload(fileInput(), cblFile(MAX_READ_LIST_IMPORT_BYTES));
    expect(await screen.findByText(/Size should be less than 10 MB/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Match' })).toBeDisabled();
    expect(net.requests.some((r) => r.path === '/api/v1/readlists/match/comicrack')).toBe(false);
  });

  it('shows the server code of a list it cannot read, translated', async () => {
    stubFetch({ [MATCH]: { status: 400, json: { status: 400, message: 'ERR_1031' } } });
    const { user, fileInput } = await openScreen();
    await user.upload(fileInput(), cblFile());
    await user.click(screen.getByRole('button', { name: 'Match' }));
    expect(
      await screen.findByText('The list could not be matched: A book in the ComicRack list has no series or number'),
    ).toBeInTheDocument();
  });

  it('matches, filters the rows, checks the name, confirms misses and duplicates, creates the list', async () => {
    const net = stubFetch({
      [MATCH]: { json: answer },
      'GET /api/v1/readlists': { json: page([buildReadList({ id: 'old', name: 'SECRET EMPIRE' })]) },
      'POST /api/v1/readlists': { json: buildReadList({ id: 'new-list', name: 'Secret Empire order' }) },
    });
    const { user, fileInput, location } = await openScreen();
    await user.upload(fileInput(), cblFile());
    await user.click(screen.getByRole('button', { name: 'Match' }));

    // Each row starts on the first match; misses and repeats say so.
    expect(await screen.findByRole('row', { name: /^Row 1:/ })).toBeInTheDocument();
    expect(within(rowOf(1)).getByRole('button', { name: /^Series of row 1:/ })).toHaveTextContent(
      'Secret Empire (2017)',
    );
    expect(within(rowOf(1)).getByRole('button', { name: /^Book of row 1:/ })).toHaveTextContent(
      '01 - Secret Empire 01',
    );
    expect(within(rowOf(1)).getByRole('img', { name: 'OK' })).toBeInTheDocument();
    expect(within(rowOf(2)).getByRole('img', { name: 'Choose a series' })).toBeInTheDocument();
    expect(within(rowOf(3)).getByRole('img', { name: 'Duplicate book' })).toBeInTheDocument();

    // Filter chips: at least one stays on.
    await user.click(screen.getByRole('button', { name: 'OK (1)' }));
    await user.click(screen.getByRole('button', { name: 'Duplicate (1)' }));
    expect(screen.queryByRole('row', { name: /^Row 1:/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('row', { name: /^Row 3:/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Error (1)' }));
    expect(screen.getByRole('button', { name: 'Error (1)' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'OK (1)' }));
    await user.click(screen.getByRole('button', { name: 'Duplicate (1)' }));

    // The name comes from the list, and a taken one (any letter case) is refused while typing.
    const name = screen.getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Secret Empire');
    expect(await screen.findByText('A read list with that name already exists')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled();
    await user.type(name, ' order');
    expect(screen.queryByText('A read list with that name already exists')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create' }));
    const confirm = await screen.findByRole('dialog', { name: 'Create the read list?' });
    expect(within(confirm).getByText('1 / 3 books are unmatched')).toBeInTheDocument();
    expect(within(confirm).getByText('1 / 3 books are duplicated')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Create anyway' }));

    await screen.findByText('Read List created: Secret Empire order');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(net.requests.find((r) => r.method === 'POST' && r.path === '/api/v1/readlists')!.body).toEqual({
      name: 'Secret Empire order',
      summary: '',
      ordered: true,
      bookIds: ['b1'],
    });
    expect(screen.getByRole('button', { name: 'Created' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to read list' }));
    await waitFor(() => expect(location()).toBe('/readlists/new-list'));
  });

  it('says the name is taken when the server does, until it is changed', async () => {
    stubFetch({
      [MATCH]: { json: { ...answer, readListMatch: { name: 'Secret Empire', errorCode: 'ERR_1009' } } },
      'GET /api/v1/readlists': { json: page([]) },
    });
    const { user, fileInput } = await openScreen();
    await user.upload(fileInput(), cblFile());
    await user.click(screen.getByRole('button', { name: 'Match' }));
    expect(await screen.findByText('A read list with that name already exists')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), ' 2');
    expect(screen.queryByText('A read list with that name already exists')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create' })).toBeEnabled();
  });

  it('picks a series by searching, takes its book with the requested number, and moves rows', async () => {
    const spidey = {
      ...buildBook({ id: 'asm29', seriesId: 'asm' }, { number: '029', title: 'Amazing Spider-Man 29' }),
    };
    const net = stubFetch({
      [MATCH]: { json: answer },
      'GET /api/v1/readlists': { json: page([]) },
      'POST /api/v1/series/list': {
        json: page([
          {
            id: 'asm',
            libraryId: 'lib-1',
            metadata: { title: 'Amazing Spider-Man' },
            booksMetadata: { releaseDate: '2015-10-07' },
          },
        ]),
      },
      'GET /api/v1/series/asm/books': {
        json: page([buildBook({ id: 'asm1', seriesId: 'asm' }, { number: '1' }), spidey]),
      },
    });
    const { user, fileInput } = await openScreen();
    await user.upload(fileInput(), cblFile());
    await user.click(screen.getByRole('button', { name: 'Match' }));

    await user.click(await screen.findByRole('button', { name: /^Series of row 2:/ }));
    const picker = await screen.findByRole('dialog', { name: 'Choose a series' });
    const search = within(picker).getByRole('textbox', { name: 'Search series' });
    expect(search).toHaveValue('Amazing Spider-Man');
    const option = await within(picker).findByRole(
      'button',
      { name: /Amazing Spider-Man \(2015\)/ },
      { timeout: 3000 },
    );
    expect(within(option).getByText('in Comics')).toBeInTheDocument();
    expect(net.requests.find((r) => r.path === '/api/v1/series/list')!.body).toEqual({
      fullTextSearch: 'Amazing Spider-Man',
    });
    await user.click(option);

    await waitFor(() =>
      expect(within(rowOf(2)).getByRole('button', { name: /^Book of row 2:/ })).toHaveTextContent(
        '029 - Amazing Spider-Man 29',
      ),
    );
    expect(within(rowOf(2)).getByRole('img', { name: 'OK' })).toBeInTheDocument();

    // Moving row 3 above row 1 makes row 1 the repeat.
    await user.click(within(rowOf(3)).getByRole('button', { name: 'Move row 3 up' }));
    await user.click(within(rowOf(3)).getByRole('button', { name: 'Move row 3 up' }));
    const rows = screen.getAllByRole('row', { name: /^Row \d:/ });
    expect(rows.map((r) => r.getAttribute('aria-label')!.slice(0, 5))).toEqual(['Row 3', 'Row 1', 'Row 2']);
    expect(within(rowOf(1)).getByRole('img', { name: 'Duplicate book' })).toBeInTheDocument();
    expect(within(rowOf(3)).getByRole('button', { name: 'Move row 3 up' })).toBeDisabled();
  });

  it('is for administrators only', async () => {
    stubFetch({});
    const { location } = renderScreen(null, {
      route: '/import/readlist',
      user: buildUser(),
      libraries: [buildLibrary()],
    });
    await waitFor(() => expect(location()).not.toContain('import'));
  });
});
