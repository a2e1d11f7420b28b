import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { jsonResponse, renderScreen } from '../../test/render';
import type { DirectoryListingDto, PathDto } from '../../api/libraries';
import { FolderBrowserDialog } from './FolderBrowserDialog';

afterEach(() => vi.unstubAllGlobals());

const dir = (path: string): PathDto => ({
  type: 'directory',
  name: path.split('/').filter(Boolean).at(-1) ?? '/',
  path,
});
const file = (path: string): PathDto => ({ type: 'file', name: path.split('/').at(-1)!, path });
/** What the server answers with showFiles (it lists the folder of a file path). */
const opt: DirectoryListingDto = {
  parent: '/',
  directories: [dir('/opt/tools')],
  files: [file('/opt/kepubify'), file('/opt/readme.txt')],
};
const tree: Record<string, DirectoryListingDto> = {
  '/opt': opt,
  '/opt/kepubify': opt,
  '/opt/tools': { parent: '/opt', directories: [], files: [] },
  '': { directories: [dir('/')], files: [] },
  '/': { parent: '', directories: [dir('/data'), dir('/srv')], files: [] },
  '/data': { parent: '/', directories: [dir('/data/comics'), dir('/data/manga')], files: [] },
  '/data/comics': { parent: '/data', directories: [], files: [] },
  '/data/manga': { parent: '/data', directories: [], files: [] },
};

/** Answers POST /api/v1/filesystem from `tree`, by the requested path. */
function stubFilesystem() {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      const { path, showFiles } = JSON.parse(String(init?.body)) as { path: string; showFiles: boolean };
      paths.push(showFiles ? `${path} (files)` : path);
      const listing = tree[path];
      return listing ? jsonResponse(200, listing) : jsonResponse(400, { status: 400, message: 'Path does not exist' });
    }),
  );
  return paths;
}

function renderBrowser(initialPath: string) {
  const onSelect = vi.fn();
  const app = renderScreen(
    <FolderBrowserDialog open initialPath={initialPath} onClose={() => {}} onSelect={onSelect} />,
  );
  return { ...app, onSelect, dialog: screen.getByRole('dialog', { name: "Library's root folder" }) };
}

function renderFileBrowser(initialPath: string) {
  const onSelect = vi.fn();
  const app = renderScreen(
    <FolderBrowserDialog
      open
      showFiles
      title="Path to kepubify"
      initialPath={initialPath}
      onClose={() => {}}
      onSelect={onSelect}
    />,
  );
  return { ...app, onSelect, dialog: screen.getByRole('dialog', { name: 'Path to kepubify' }) };
}

describe('FolderBrowserDialog', () => {
  it('starts at the roots, enters folders, goes up with .., and chooses the folder shown', async () => {
    const paths = stubFilesystem();
    const { user, dialog, onSelect } = renderBrowser('');
    expect(within(dialog).getByRole('button', { name: 'Choose' })).toBeDisabled();
    await user.click(await within(dialog).findByRole('button', { name: '/' }));
    await user.click(await within(dialog).findByRole('button', { name: 'data' }));
    await user.click(await within(dialog).findByRole('button', { name: 'comics' }));
    expect(await within(dialog).findByText('No sub-folders')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Parent folder' }));
    expect(await within(dialog).findByRole('button', { name: 'manga' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Choose' }));
    expect(onSelect).toHaveBeenCalledWith('/data');
    expect(paths).toEqual(['', '/', '/data', '/data/comics']);
  });

  it('opens at the current root folder and works from the keyboard', async () => {
    stubFilesystem();
    const { user, dialog, onSelect } = renderBrowser('/data');
    const manga = await within(dialog).findByRole('button', { name: 'manga' });
    manga.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'manga' })).not.toBeInTheDocument());
    expect(within(dialog).getByText('/data/manga')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Choose' }));
    expect(onSelect).toHaveBeenCalledWith('/data/manga');
  });

  it('explains a path the server refuses and offers the top level', async () => {
    stubFilesystem();
    const { user, dialog } = renderBrowser('/nowhere');
    expect(await within(dialog).findByText('Path does not exist')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Choose' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Back to top' }));
    expect(await within(dialog).findByRole('button', { name: '/' })).toBeInTheDocument();
    expect(screen.queryByText('Path does not exist')).not.toBeInTheDocument();
  });

  it('with files shown, lists them and chooses the file clicked, not the folder', async () => {
    const paths = stubFilesystem();
    const { user, dialog, onSelect } = renderFileBrowser('/opt');
    const list = await within(dialog).findByRole('list', { name: 'Folders and files' });
    await within(list).findByRole('button', { name: 'readme.txt' });
    expect(within(dialog).getByRole('button', { name: 'Choose' })).toBeDisabled();
    await user.click(within(list).getByRole('button', { name: 'kepubify' }));
    expect(within(list).getByRole('button', { name: 'kepubify' })).toHaveAttribute('aria-current', 'true');
    expect(within(dialog).getByText('/opt/kepubify')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Choose' }));
    expect(onSelect).toHaveBeenCalledWith('/opt/kepubify');
    expect(paths).toEqual(['/opt (files)']);
  });

  it('with files shown, starts at the current file, and opening a folder drops the choice', async () => {
    stubFilesystem();
    const { user, dialog } = renderFileBrowser('/opt/kepubify');
    expect(await within(dialog).findByRole('button', { name: 'kepubify' })).toHaveAttribute('aria-current', 'true');
    expect(within(dialog).getByRole('button', { name: 'Choose' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'tools' }));
    expect(await within(dialog).findByText('This folder is empty')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Choose' })).toBeDisabled();
  });
});
