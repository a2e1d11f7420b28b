import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildLibrary } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { DeleteBooksDialog, DeleteSeriesDialog } from './DeleteDialogs';
import { buildBook, buildSeries } from './test-fixtures';

afterEach(() => vi.unstubAllGlobals());

// Menus and dialogs animate and load lazily: room for a busy machine.
configure({ asyncUtilTimeout: 5000 });

function render(ui: React.ReactElement) {
  return renderScreen(ui, { user: buildAdmin(), libraries: [buildLibrary()] });
}

describe('DeleteBooksDialog', () => {
  it('says the file goes too, and deletes only once acknowledged', async () => {
    const { requests } = stubFetch({ 'DELETE /api/v1/books/book-1/file': { status: 202 } });
    const onClose = vi.fn();
    const onDeleted = vi.fn();
    const { user } = render(<DeleteBooksDialog open books={[buildBook()]} onClose={onClose} onDeleted={onDeleted} />);
    const dialog = screen.getByRole('dialog', { name: 'Delete book' });
    expect(dialog).toHaveTextContent('The book Chapter One will be removed from this server along with its file.');
    expect(dialog).toHaveTextContent('cannot be undone');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Yes, delete the book "Chapter One" and its file' }));
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    expect(await screen.findByText('Book Chapter One deleted')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/v1/books/book-1/file']);
    expect(onClose).toHaveBeenCalled();
    expect(onDeleted).toHaveBeenCalledWith([expect.objectContaining({ id: 'book-1' })]);
  });

  it('cancelling sends nothing', async () => {
    const { requests } = stubFetch({});
    const onClose = vi.fn();
    const { user } = render(<DeleteBooksDialog open books={[buildBook()]} onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  it('deletes several books one by one and reports those that failed', async () => {
    const { requests } = stubFetch({
      'DELETE /api/v1/books/b1/file': { status: 202 },
      'DELETE /api/v1/books/b2/file': { status: 500, json: { message: 'Disk is read-only' } },
      'DELETE /api/v1/books/b3/file': { status: 202 },
    });
    const onClose = vi.fn();
    const books = ['b1', 'b2', 'b3'].map((id) => buildBook({ id }, { title: id }));
    const { user } = render(<DeleteBooksDialog open books={books} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Delete 3 books' });
    expect(dialog).toHaveTextContent('3 books will be removed from this server along with their files.');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Yes, delete 3 books and their files' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('1 of 3 failed: Disk is read-only')).toBeInTheDocument();
    expect(
      requests
        .filter((r) => r.method === 'DELETE')
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/api/v1/books/b1/file', '/api/v1/books/b2/file', '/api/v1/books/b3/file']);
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('DeleteSeriesDialog', () => {
  it('deletes the series and its files once acknowledged', async () => {
    const { requests } = stubFetch({ 'DELETE /api/v1/series/series-1/file': { status: 202 } });
    const onClose = vi.fn();
    const { user } = render(<DeleteSeriesDialog open series={[buildSeries()]} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Delete series' });
    expect(dialog).toHaveTextContent('The series Saga will be removed from this server along with its books');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Yes, delete the series "Saga" and its files' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/v1/series/series-1/file']);
    expect(await screen.findByText('Series Saga deleted')).toBeInTheDocument();
  });
});
