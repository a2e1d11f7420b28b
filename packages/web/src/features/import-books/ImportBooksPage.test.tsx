import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { TransientBookDto } from '@quire/api';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildBook, buildLibrary, buildSeries, buildUser, page } from '../../test/fixtures';
import { getPreferences, resetPreferences, setPreference } from '../../app/preferences';
import { stubFetch } from '../account/fetch-stub';

/** A stand-in for the browser's EventSource, so a test can send the live events the server would. */
class FakeEventSource {
  static last: FakeEventSource | undefined;
  private handlers = new Map<string, ((e: MessageEvent) => void)[]>();
  constructor() {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, handler: (e: MessageEvent) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }
  close() {}
  emit(type: string, data: unknown) {
    this.handlers.get(type)?.forEach((h) => h(new MessageEvent(type, { data: JSON.stringify(data) })));
  }
}

beforeEach(() => {
  resetPreferences();
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => vi.unstubAllGlobals());

const pageOf = (number: number, fileName = `p${number}.jpg`) => ({
  number,
  fileName,
  mediaType: 'image/jpeg',
  width: 800,
  height: 1200,
  sizeBytes: 1000,
  size: '1000 B',
});

/** A scanned book; its id is its name without spaces. */
function transient(name: string, overrides: Partial<TransientBookDto> = {}): TransientBookDto {
  return {
    id: name.replace(/ /g, '-'),
    name,
    url: `/incoming/${name}.cbz`,
    fileLastModified: '2026-01-01T10:00:00',
    sizeBytes: 2048,
    size: '2 KiB',
    status: 'UNKNOWN',
    mediaType: '',
    pages: [],
    files: [],
    comment: '',
    ...overrides,
  };
}

const analysed = (id: string, overrides: Partial<TransientBookDto> = {}) =>
  transient(id, { status: 'READY', mediaType: 'application/zip', pages: [pageOf(1), pageOf(2)], ...overrides });

const series = buildSeries({ id: 'series-1' }, { title: 'Alpha' });
const existing = buildBook(
  { id: 'book-1', name: 'Alpha 001', media: { ...buildBook().media, pagesCount: 3 } },
  { number: '1', numberSort: 1 },
);

const admin = { user: buildAdmin(), libraries: [buildLibrary()] };

describe('import books', () => {
  it('scans the remembered folder, guesses series and numbers, compares an upgrade and imports the valid rows', async () => {
    setPreference('importPath', '/incoming');
    const net = stubFetch({
      'POST /api/v1/transient-books': {
        json: [transient('Alpha 002'), transient('Alpha 001 HD'), transient('Broken')],
      },
      'POST /api/v1/transient-books/Alpha-002/analyze': {
        json: analysed('Alpha 002', { seriesId: 'series-1', number: 2 }),
      },
      'POST /api/v1/transient-books/Alpha-001-HD/analyze': {
        json: analysed('Alpha 001 HD', { seriesId: 'series-1', number: 1, pages: [pageOf(1, 'hd1.jpg'), pageOf(2)] }),
      },
      'POST /api/v1/transient-books/Broken/analyze': {
        json: transient('Broken', { status: 'ERROR', comment: 'ERR_1006' }),
      },
      'GET /api/v1/series/series-1': { json: series },
      'POST /api/v1/books/list': { json: page([existing]) },
      'GET /api/v1/books/book-1/pages': { json: [pageOf(1), pageOf(2), pageOf(3)] },
      'POST /api/v1/books/import': { status: 202, json: {} },
    });
    const { user } = renderScreen(null, { route: '/import/books', ...admin });

    expect(await screen.findByRole('textbox', { name: 'Import from folder' })).toHaveValue('/incoming');
    await user.click(screen.getByRole('button', { name: 'Scan' }));
    expect(net.requests.find((r) => r.path === '/api/v1/transient-books')!.body).toEqual({ path: '/incoming' });

    const table = await screen.findByRole('table', { name: 'Books to import' });
    const rowOf = (file: string) => within(table).getAllByText(file)[0]!.closest('tr')!;
    // Guessed series and numbers once analysed; the number that exists in the series proposes an upgrade.
    await waitFor(() => expect(within(rowOf('Alpha 002')).getByText('Alpha')).toBeInTheDocument());
    expect(within(rowOf('Alpha 002')).getByRole('spinbutton', { name: 'Number of Alpha 002' })).toHaveValue(2);
    await waitFor(() =>
      expect(within(rowOf('Alpha 001 HD')).getByTitle('Existing book will be upgraded')).toBeInTheDocument(),
    );
    expect(within(rowOf('Broken')).getByText('The book does not contain any page')).toBeInTheDocument();
    expect(within(rowOf('Broken')).getByTitle('Can only import books without errors')).toBeInTheDocument();

    // The compare dialog: candidate against existing, then page by page.
    await user.click(within(rowOf('Alpha 001 HD')).getByRole('button', { name: /Compare with the existing book/ }));
    const compare = await screen.findByRole('dialog', { name: 'Compare books' });
    const summary = within(compare).getByRole('table', { name: 'Books compared' });
    expect(within(summary).getByRole('row', { name: /Pages 2 3/ })).toBeInTheDocument();
    expect(await within(compare).findByText('hd1.jpg')).toBeInTheDocument();
    expect(within(compare).getAllByText('p3.jpg')).toHaveLength(1);
    await user.click(within(compare).getByRole('button', { name: 'Close' }));

    // The side-by-side viewer turns both books together.
    await user.click(within(rowOf('Alpha 001 HD')).getByRole('button', { name: /View both books/ }));
    const viewer = await screen.findByRole('dialog', { name: 'Compare pages' });
    expect(within(viewer).getByAltText('Alpha 001 HD, page 1')).toHaveAttribute(
      'src',
      '/api/v1/transient-books/Alpha-001-HD/pages/1',
    );
    await user.click(within(viewer).getByRole('button', { name: 'Next page of both books' }));
    expect(within(viewer).getByAltText('Alpha 001, page 2')).toHaveAttribute('src', '/api/v1/books/book-1/pages/2');
    await user.click(within(viewer).getByRole('button', { name: 'Close' }));

    await user.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Import started' })).toBeInTheDocument());
    expect(net.requests.find((r) => r.path === '/api/v1/books/import')!.body).toEqual({
      copyMode: 'HARDLINK',
      books: [
        { seriesId: 'series-1', sourceFile: '/incoming/Alpha 002.cbz', destinationName: 'Alpha 002' },
        {
          seriesId: 'series-1',
          sourceFile: '/incoming/Alpha 001 HD.cbz',
          upgradeBookId: 'book-1',
          destinationName: 'Alpha 001 HD',
        },
      ],
    });

    // Outcomes arrive as live events, whichever screen is open.
    act(() => {
      FakeEventSource.last!.emit('BookImported', {
        bookId: 'new',
        sourceFile: '/incoming/Alpha 002.cbz',
        success: true,
      });
      FakeEventSource.last!.emit('BookImported', {
        sourceFile: '/incoming/Alpha 001 HD.cbz',
        success: false,
        message: 'ERR_1021',
      });
    });
    expect(await screen.findByText('Import successful')).toBeInTheDocument();
    expect(
      screen.getByText('Import failed for Alpha 001 HD.cbz: The destination file already exists'),
    ).toBeInTheDocument();
  });

  it('picks a series for the selected rows, names the destination and moves files', async () => {
    const other = buildSeries({ id: 'series-2' }, { title: 'Beta' });
    const net = stubFetch({
      'POST /api/v1/transient-books': { json: [transient('one'), transient('two')] },
      'POST /api/v1/transient-books/one/analyze': { json: analysed('one') },
      'POST /api/v1/transient-books/two/analyze': { json: analysed('two') },
      'POST /api/v1/series/list': { json: page([other]) },
      'GET /api/v1/series/series-2': { json: other },
      'POST /api/v1/books/list': {
        json: page([buildBook({ id: 'b9', name: 'Beta 009', url: '/data/comics/Beta/Beta 009.cbz' })]),
      },
      'POST /api/v1/books/import': { status: 202, json: {} },
    });
    const { user } = renderScreen(null, { route: '/import/books', ...admin });
    const folder = await screen.findByRole('textbox', { name: 'Import from folder' });
    await user.type(folder, '/elsewhere{Enter}');
    expect(getPreferences().importPath).toBe('/elsewhere');

    const table = await screen.findByRole('table', { name: 'Books to import' });
    await waitFor(() => expect(within(table).getAllByTitle('Choose a series')).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();

    // Only the selected row gets the series chosen for all.
    await user.click(within(table).getByRole('checkbox', { name: 'Select two' }));
    expect(within(table).getByRole('checkbox', { name: 'Select all books' })).toHaveAttribute(
      'data-indeterminate',
      'true',
    );
    await user.click(screen.getByRole('button', { name: 'Select series' }));
    const picker = await screen.findByRole('dialog', { name: 'Select series' });
    await user.type(within(picker).getByRole('textbox', { name: 'Search series' }), 'bet');
    await user.click(await within(picker).findByRole('button', { name: /Beta/ }));
    const seriesListCall = net.requests.find((r) => r.path === '/api/v1/series/list')!;
    expect(seriesListCall.body).toEqual({ fullTextSearch: 'bet', condition: { oneShot: { operator: 'isFalse' } } });
    // The first 50 matches, not every one (ui.md §13.8 has the reference ask unpaged).
    expect(seriesListCall.search).toContain('size=50');
    const rowOf = (file: string) => within(table).getAllByText(file)[0]!.closest('tr')!;
    await waitFor(() => expect(within(rowOf('one')).getByText('Beta')).toBeInTheDocument());
    expect(within(rowOf('two')).getByRole('button', { name: 'Series of two' })).toHaveTextContent('Choose a series');

    await user.click(within(rowOf('one')).getByRole('button', { name: /Choose the destination name/ }));
    const naming = await screen.findByRole('dialog', { name: 'Destination name' });
    await user.click(within(naming).getByRole('button', { name: 'Beta 009.cbz' }));
    expect(within(naming).getByRole('textbox', { name: 'Destination name' })).toHaveValue('Beta 009');
    await user.clear(within(naming).getByRole('textbox', { name: 'Destination name' }));
    await user.type(within(naming).getByRole('textbox', { name: 'Destination name' }), 'Beta 010');
    await user.click(within(naming).getByRole('button', { name: 'Choose' }));
    expect(within(rowOf('one')).getByText('Beta 010')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Copy mode' }));
    await user.click(await screen.findByRole('option', { name: 'Move files' }));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() =>
      expect(net.requests.find((r) => r.path === '/api/v1/books/import')!.body).toEqual({
        copyMode: 'MOVE',
        books: [{ seriesId: 'series-2', sourceFile: '/incoming/one.cbz', destinationName: 'Beta 010' }],
      }),
    );
  });

  it('sends no row before its series’ books are known (it may be an upgrade)', async () => {
    setPreference('importPath', '/incoming');
    const { fetchMock } = stubFetch({
      'POST /api/v1/transient-books': { json: [transient('one')] },
      'POST /api/v1/transient-books/one/analyze': { json: analysed('one', { seriesId: 'series-1', number: 1 }) },
      'GET /api/v1/series/series-1': { json: series },
    });
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation((input, init) =>
      String(input).includes('/api/v1/books/list') ? new Promise<Response>(() => {}) : answer(input, init),
    );
    const { user } = renderScreen(null, { route: '/import/books', ...admin });
    await user.click(await screen.findByRole('button', { name: 'Scan' }));
    const table = await screen.findByRole('table', { name: 'Books to import' });
    await waitFor(() => expect(within(table).getByText('Alpha')).toBeInTheDocument());
    expect(within(table).getByRole('img', { name: 'Analyzed without errors' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
  });

  it('shows why a scan failed, and when a folder holds no book', async () => {
    setPreference('importPath', '/data/comics');
    stubFetch({ 'POST /api/v1/transient-books': { status: 400, json: { status: 400, message: 'ERR_1017' } } });
    const { user } = renderScreen(null, { route: '/import/books', ...admin });
    await user.click(await screen.findByRole('button', { name: 'Scan' }));
    expect(await screen.findByText('Cannot scan a folder that is part of an existing library')).toBeInTheDocument();

    stubFetch({ 'POST /api/v1/transient-books': { json: [] } });
    await user.click(screen.getByRole('button', { name: 'Scan' }));
    expect(await screen.findByText('No books were found in this folder.')).toBeInTheDocument();
  });

  it('is for administrators only', async () => {
    stubFetch({});
    const { location } = renderScreen(null, { route: '/import/books', user: buildUser(), libraries: [buildLibrary()] });
    await waitFor(() => expect(location()).not.toBe('/import/books'));
    expect(screen.queryByRole('textbox', { name: 'Import from folder' })).not.toBeInTheDocument();
  });
});
