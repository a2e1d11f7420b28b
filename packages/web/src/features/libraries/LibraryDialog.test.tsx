import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildLibrary, buildUser } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { LIBRARY_DEFAULTS } from '../../api/libraries';

afterEach(() => vi.unstubAllGlobals());

/** The welcome screen of an admin without libraries, with the add dialog opened from its button. */
async function openAddDialog(answers: Parameters<typeof stubFetch>[0] = {}) {
  const net = stubFetch({ 'GET /api/v1/libraries': { json: [] }, ...answers });
  const app = renderScreen(null, { user: buildAdmin(), libraries: [], route: '/welcome' });
  const main = await screen.findByRole('main');
  await app.user.click(await within(main).findByRole('button', { name: 'Add library' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add library' });
  return { ...app, ...net, dialog };
}

describe('welcome page', () => {
  it('offers Add library to admins only', async () => {
    stubFetch({ 'GET /api/v1/libraries': { json: [] } });
    const reader = renderScreen(null, { user: buildUser(), libraries: [], route: '/welcome' });
    await screen.findByRole('heading', { name: 'Welcome to Quire' });
    expect(screen.queryByRole('button', { name: 'Add library' })).not.toBeInTheDocument();
    reader.unmount();
    renderScreen(null, { user: buildAdmin(), libraries: [], route: '/welcome' });
    const main = await screen.findByRole('main');
    expect(await within(main).findByRole('button', { name: 'Add library' })).toBeInTheDocument();
  });
});

describe('LibraryDialog', () => {
  it('requires a name and a root folder, and sends nothing', async () => {
    const { user, dialog, requests } = await openAddDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getAllByText('Required')).toHaveLength(2);
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/libraries')).toEqual([]);
  });

  it('jumps back to General when saving from another tab with a missing name', async () => {
    const { user, dialog } = await openAddDialog();
    await user.click(within(dialog).getByRole('tab', { name: 'Metadata' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Required');
  });

  it('refuses a name another library already has', async () => {
    stubFetch({});
    const app = renderScreen(null, { user: buildAdmin(), libraries: [buildLibrary()], route: '/dashboard' });
    await app.user.click(await screen.findByRole('button', { name: 'Open navigation' }));
    await app.user.click(await screen.findByRole('button', { name: 'Add library' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add library' });
    await app.user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Comics');
    expect(within(dialog).getByText('A library with this name already exists')).toBeInTheDocument();
  });

  it('creates a library with the default options', async () => {
    const created = buildLibrary({ id: 'lib-2', name: 'Manga', root: '/data/manga' });
    const { user, dialog, requests } = await openAddDialog({ 'POST /api/v1/libraries': { json: created } });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Manga');
    await user.type(within(dialog).getByRole('textbox', { name: 'Root folder' }), '/data/manga');
    // Walk the tabs with Next: the defaults are shown, untouched.
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByRole('combobox', { name: 'Scan interval' })).toHaveTextContent('Every 6 hours');
    expect(within(dialog).getByRole('checkbox', { name: 'PDF' })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: '@eaDir' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByRole('checkbox', { name: 'Compute hash for files' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Compute hash for pages' })).not.toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
    const epub = within(dialog).getByRole('group', { name: 'Import metadata from EPUB files' });
    expect(within(epub).getByRole('checkbox', { name: 'Book metadata' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    const post = requests.find((r) => r.method === 'POST' && r.path === '/api/v1/libraries')!;
    expect(post.body).toEqual({ name: 'Manga', root: '/data/manga', ...LIBRARY_DEFAULTS });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add library' })).not.toBeInTheDocument());
    expect(await screen.findByText('Library Manga added; its first scan is queued')).toBeInTheDocument();
  });

  it('fills the root folder from the folder browser', async () => {
    const { user, dialog } = await openAddDialog({
      'POST /api/v1/filesystem': {
        json: { parent: '', directories: [{ type: 'directory', name: 'data', path: '/data' }], files: [] },
      },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Browse' }));
    const browser = await screen.findByRole('dialog', { name: "Library's root folder" });
    await user.click(await within(browser).findByRole('button', { name: 'data' }));
    await user.click(within(browser).getByRole('button', { name: 'Choose' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: "Library's root folder" })).not.toBeInTheDocument(),
    );
    expect(within(dialog).getByRole('textbox', { name: 'Root folder' })).toHaveValue('/data');
  });

  it('shows the server refusal, translated, under the root folder', async () => {
    const { user, dialog } = await openAddDialog({
      'POST /api/v1/libraries': { status: 400, json: { status: 400, message: 'ERR_1017' } },
    });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Manga');
    await user.type(within(dialog).getByRole('textbox', { name: 'Root folder' }), '/data/comics/manga');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(
      await within(dialog).findByText('Cannot scan a folder that is part of an existing library'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add library' })).toBeInTheDocument();
  });

  it('edits from the library menu and sends only the changed fields', async () => {
    const library = buildLibrary({ oneshotsDirectory: '_oneshots' });
    const { requests } = stubFetch({
      'PATCH /api/v1/libraries/lib-1': { status: 204 },
      'GET /api/v1/libraries': { json: [library] },
    });
    const app = renderScreen(null, { user: buildAdmin(), libraries: [library], route: '/dashboard' });
    await app.user.click(await screen.findByRole('button', { name: 'Open navigation' }));
    await app.user.click(await screen.findByRole('button', { name: 'Actions for Comics' }));
    await app.user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit library' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Comics');
    await app.user.clear(name);
    await app.user.type(name, 'Comic books');
    await app.user.click(within(dialog).getByRole('tab', { name: 'Options' }));
    await app.user.click(within(dialog).getByRole('checkbox', { name: 'Compute hash for pages' }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PATCH')).toBe(true));
    expect(requests.find((r) => r.method === 'PATCH')).toMatchObject({
      path: '/api/v1/libraries/lib-1',
      body: { name: 'Comic books', hashPages: true },
    });
    expect(await screen.findByText('Library Comic books updated')).toBeInTheDocument();
  });
});
