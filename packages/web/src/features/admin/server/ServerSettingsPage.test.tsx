import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SettingsDto } from '@quire/api';
import { renderScreen } from '../../../test/render';
import { stubFetch } from '../../account/fetch-stub';
import { ServerSettingsPage } from './ServerSettingsPage';
import { formOf, settingsChanges, validateSettings } from './settings-form';

afterEach(() => vi.unstubAllGlobals());

const settings: SettingsDto = {
  deleteEmptyCollections: true,
  deleteEmptyReadLists: true,
  rememberMeDurationDays: 365,
  thumbnailSize: 'DEFAULT',
  taskPoolSize: 1,
  serverPort: { configurationSource: 25600, databaseSource: null, effectiveValue: 25600 },
  serverContextPath: { configurationSource: null, databaseSource: null, effectiveValue: null },
  koboProxy: false,
  koboPort: null,
  kepubifyPath: { configurationSource: null, databaseSource: null, effectiveValue: null },
};

describe('settings form rules', () => {
  const base = formOf(settings);
  it.each([
    [{ serverPort: '70000' }, { serverPort: 'port' }],
    [{ serverPort: '0' }, { serverPort: 'port' }],
    [{ serverPort: '' }, {}],
    [{ taskPoolSize: '0' }, { taskPoolSize: 'minOne' }],
    [{ taskPoolSize: '' }, { taskPoolSize: 'required' }],
    [{ rememberMeDurationDays: '-1' }, { rememberMeDurationDays: 'minZero' }],
    [{ rememberMeDurationDays: '0' }, {}],
    [{ serverContextPath: 'quire' }, { serverContextPath: 'contextPath' }],
    [{ serverContextPath: '/quire/' }, { serverContextPath: 'contextPath' }],
    [{ serverContextPath: '/quire-' }, { serverContextPath: 'contextPath' }],
    [{ serverContextPath: '/my_komga/v2' }, {}],
    [{ koboPort: '0' }, { koboPort: 'port' }],
    [{ koboPort: '65536' }, { koboPort: 'port' }],
    [{ koboPort: '443' }, {}],
    // Komga's form checks the kepubify path with the context-path rule by mistake (ui.md item 9): any path goes.
    [{ kepubifyPath: 'kepubify' }, {}],
    [{ kepubifyPath: 'C:\\Tools\\kepubify.exe' }, {}],
  ])('%j gives %j', (patch, errors) => expect(validateSettings({ ...base, ...patch })).toEqual(errors));

  it('keeps only what changed, clearing emptied fields with null', () => {
    const initial = formOf({
      ...settings,
      serverPort: { configurationSource: 25600, databaseSource: 8080, effectiveValue: 8080 },
    });
    expect(settingsChanges(initial, initial)).toEqual({});
    expect(
      settingsChanges(initial, { ...initial, serverPort: '', serverContextPath: '/q', taskPoolSize: '01' }),
    ).toEqual({ serverPort: null, serverContextPath: '/q' });
    const kobo = formOf({
      ...settings,
      koboProxy: true,
      koboPort: 443,
      kepubifyPath: { configurationSource: null, databaseSource: '/bin/kepubify', effectiveValue: '/bin/kepubify' },
    });
    expect(settingsChanges(kobo, { ...kobo, koboPort: '', kepubifyPath: ' ' })).toEqual({
      koboPort: null,
      kepubifyPath: null,
    });
    expect(settingsChanges(kobo, { ...kobo, koboProxy: false })).toEqual({ koboProxy: false });
  });
});

function renderPage(
  restartRequired?: { restartRequired: boolean; settings: string[] },
  cancelled = 0,
  loaded: SettingsDto = settings,
) {
  const net = stubFetch({
    'DELETE /api/v1/tasks': { json: cancelled },
    'GET /api/v1/settings': { json: loaded },
    'POST /api/v1/filesystem': {
      json: {
        parent: '/usr',
        directories: [{ type: 'directory', name: 'lib', path: '/usr/bin/lib' }],
        files: [{ type: 'file', name: 'kepubify', path: '/usr/bin/kepubify' }],
      },
    },
    'PATCH /api/v1/settings': { status: 204 },
    ...(restartRequired ? { 'GET /api/v1/settings/restart-required': { json: restartRequired } } : {}),
    'POST /actuator/shutdown': { json: { message: 'Shutting down, bye...' } },
  });
  renderScreen(<ServerSettingsPage />, { route: '/settings/server' });
  return net;
}

describe('ServerSettingsPage', () => {
  it('rejects port 70000', async () => {
    renderPage();
    const port = await screen.findByRole('spinbutton', { name: 'Server port' });
    await userEvent.type(port, '70000');
    expect(await screen.findByText('Must be between 1 and 65535')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it('rejects a bad context path', async () => {
    renderPage();
    const path = await screen.findByRole('textbox', { name: 'Base URL (context path)' });
    await userEvent.type(path, '/quire/');
    expect(
      await screen.findByText(
        "Must start with '/', must not end with '/', '-' or '_', and may contain only letters, digits, '/', '-' and '_'",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it('sends only the changed fields', async () => {
    const { requests } = renderPage();
    const threads = await screen.findByRole('spinbutton', { name: /^Task threads/ });
    await userEvent.clear(threads);
    await userEvent.type(threads, '4');
    await userEvent.click(screen.getByRole('switch', { name: 'Delete empty collections after scan' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PATCH')).toBe(true));
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      taskPoolSize: 4,
      deleteEmptyCollections: false,
    });
  });

  it('shows the stored Kobo settings', async () => {
    renderPage(undefined, 0, {
      ...settings,
      koboProxy: true,
      koboPort: 443,
      kepubifyPath: { configurationSource: null, databaseSource: '/opt/kepubify', effectiveValue: '/opt/kepubify' },
    });
    const group = await screen.findByRole('group', { name: 'Kobo sync' });
    expect(within(group).getByRole('switch', { name: 'Proxy Kobo Sync requests to Kobo Store' })).toBeChecked();
    const port = within(group).getByRole('spinbutton', { name: 'Kobo Sync external port' });
    expect(port).toHaveValue(443);
    expect(port).toHaveAccessibleDescription('Set only in case of sync issues with covers and downloads');
    expect(within(group).getByRole('textbox', { name: 'Path to kepubify' })).toHaveValue('/opt/kepubify');
  });

  it('shows the configured kepubify path as the placeholder', async () => {
    renderPage(undefined, 0, {
      ...settings,
      kepubifyPath: { configurationSource: '/etc/kepubify', databaseSource: null, effectiveValue: '/etc/kepubify' },
    });
    const path = await screen.findByRole('textbox', { name: 'Path to kepubify' });
    expect(path).toHaveValue('');
    expect(path).toHaveAttribute('placeholder', '/etc/kepubify');
  });

  it('rejects Kobo port 70000', async () => {
    renderPage();
    const port = await screen.findByRole('spinbutton', { name: 'Kobo Sync external port' });
    await userEvent.type(port, '70000');
    expect(port).toHaveAccessibleDescription('Must be between 1 and 65535');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it('sends the changed Kobo settings', async () => {
    const { requests } = renderPage();
    await userEvent.click(await screen.findByRole('switch', { name: 'Proxy Kobo Sync requests to Kobo Store' }));
    await userEvent.type(screen.getByRole('spinbutton', { name: 'Kobo Sync external port' }), '443');
    // A bare program name is fine: the context-path rule does not apply here (Komga's bug, ui.md item 9).
    await userEvent.type(screen.getByRole('textbox', { name: 'Path to kepubify' }), 'kepubify');
    expect(screen.queryByText(/Must start with '\/'/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PATCH')).toBe(true));
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      koboProxy: true,
      koboPort: 443,
      kepubifyPath: 'kepubify',
    });
  });

  it('picks kepubify with the server file browser, and clears the Kobo port with null', async () => {
    const { requests } = renderPage(undefined, 0, { ...settings, koboPort: 8443 });
    await userEvent.click(await screen.findByRole('button', { name: 'Browse' }));
    const dialog = await screen.findByRole('dialog', { name: 'Path to kepubify' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'kepubify' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Choose' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: 'Path to kepubify' })).toHaveValue('/usr/bin/kepubify');
    expect(requests.find((r) => r.path === '/api/v1/filesystem')?.body).toEqual({ path: '', showFiles: true });
    await userEvent.clear(screen.getByRole('spinbutton', { name: 'Kobo Sync external port' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PATCH')).toBe(true));
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      koboPort: null,
      kepubifyPath: '/usr/bin/kepubify',
    });
  });

  it('says in general which settings need a restart when the server cannot tell', async () => {
    renderPage();
    expect(await screen.findByText(/the server port and the base URL take effect only after/)).toBeInTheDocument();
  });

  it('lists the saved settings that wait for a restart', async () => {
    renderPage({ restartRequired: true, settings: ['serverPort'] });
    expect(await screen.findByText(/take effect after the server restarts: Server port\./)).toBeInTheDocument();
  });

  it('says the remember-me duration applies at once, and saving it asks for no restart', async () => {
    const { requests } = renderPage({ restartRequired: false, settings: [] });
    const duration = await screen.findByRole('spinbutton', { name: /^Remember me duration/ });
    expect(duration).toHaveAccessibleDescription(/Applies at once .* no restart needed/);
    await userEvent.clear(duration);
    await userEvent.type(duration, '30');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PATCH')).toBe(true));
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ rememberMeDurationDays: 30 });
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(screen.queryByText('Restart required')).not.toBeInTheDocument();
  });

  it('asks before stopping the server', async () => {
    const { requests } = renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Stop server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop the server?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stop server' }));
    expect(await screen.findByText('The server is shutting down.')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST' && r.path === '/actuator/shutdown')).toBe(true);
  });

  it('offers the log file as a download named komga.log', async () => {
    renderPage();
    const link = await screen.findByRole('link', { name: 'Download log file' });
    expect(link).toHaveAttribute('href', '/actuator/logfile');
    expect(link).toHaveAttribute('download', 'komga.log');
  });

  it.each([
    [0, 'No tasks to cancel'],
    [1, 'One task cancelled'],
    [3, '3 tasks cancelled'],
  ])('cancels all tasks and says how many: %i', async (cancelled, toast) => {
    const { requests } = renderPage(undefined, cancelled);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel all tasks' }));
    expect(await screen.findByText(toast)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE' && r.path === '/api/v1/tasks')).toHaveLength(1);
  });
});
