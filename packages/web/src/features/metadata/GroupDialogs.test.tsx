import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { AddToCollectionDialog, AddToReadListDialog, EditCollectionDialog, EditReadListDialog } from './GroupDialogs';
import { buildCollection, buildReadList } from './test-data';
import { fill } from './test-utils';

afterEach(() => vi.unstubAllGlobals());
vi.setConfig({ testTimeout: 30_000 });

const page = <T,>(content: T[]) => ({ content, totalElements: content.length, number: 0, size: content.length });

const collections = [
  buildCollection({ id: 'c1', name: 'Éclairs', seriesIds: ['s9'], lastModifiedDate: '2024-01-01T00:00:00Z' }),
  buildCollection({ id: 'c2', name: 'Space opera', seriesIds: ['s1', 's8'], lastModifiedDate: '2024-06-01T00:00:00Z' }),
];

describe('AddToCollectionDialog', () => {
  function open(answers: Parameters<typeof stubFetch>[0] = {}) {
    const net = stubFetch({ 'GET /api/v1/collections': { json: page(collections) }, ...answers });
    const onClose = vi.fn();
    const app = renderScreen(<AddToCollectionDialog open seriesIds={['s1', 's2']} onClose={onClose} />, {
      user: buildAdmin(),
    });
    return { ...app, ...net, onClose };
  }

  it('lists the most recently modified first and filters ignoring case and accents', async () => {
    const { user, requests } = open();
    const dialog = await screen.findByRole('dialog', { name: 'Add to collection' });
    const items = await within(dialog).findAllByRole('button', { name: /series/ });
    expect(items.map((i) => i.textContent)).toEqual(['Space opera2 series', 'Éclairs1 series']);
    expect(requests.find((r) => r.path === '/api/v1/collections')?.search).toBe('?unpaged=true');
    const search = within(dialog).getByRole('textbox', { name: 'Search or create collection' });
    expect(search).toHaveFocus();
    await fill(user, search, 'ecl');
    expect(
      within(dialog)
        .getAllByRole('button', { name: /series/ })
        .map((i) => i.textContent),
    ).toEqual(['Éclairs1 series']);
    await fill(user, search, 'xyz');
    expect(within(dialog).getByText('No matching collection')).toBeInTheDocument();
  });

  it('flags an existing name and creates a new collection with the series', async () => {
    const created = buildCollection({ id: 'c3', name: 'New one' });
    const { user, requests, onClose } = open({ 'POST /api/v1/collections': { json: created } });
    const dialog = await screen.findByRole('dialog', { name: 'Add to collection' });
    const search = within(dialog).getByRole('textbox', { name: 'Search or create collection' });
    await fill(user, search, 'SPACE OPERA');
    expect(within(dialog).getByText('A collection with this name already exists')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
    await user.clear(search);
    await fill(user, search, 'New one');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'New one',
      ordered: false,
      seriesIds: ['s1', 's2'],
    });
    expect(await screen.findByText('Collection New one created')).toBeInTheDocument();
  });

  it('adds the series to an existing collection, keeping its members first', async () => {
    const { user, requests, onClose } = open({ 'PATCH /api/v1/collections/c2': { status: 204 } });
    const dialog = await screen.findByRole('dialog', { name: 'Add to collection' });
    await user.click(await within(dialog).findByRole('button', { name: /Space opera/ }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ seriesIds: ['s1', 's8', 's2'] });
    expect(await screen.findByText('Added 2 series to Space opera')).toBeInTheDocument();
  });

  it('shows a refusal and stays open', async () => {
    const { user, onClose } = open({
      'POST /api/v1/collections': { status: 400, json: { status: 400, message: 'Collection name already exists' } },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Add to collection' });
    await fill(user, within(dialog).getByRole('textbox', { name: 'Search or create collection' }), 'Other');
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText('Collection name already exists')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('AddToReadListDialog', () => {
  it('creates a read list with the books, ordered', async () => {
    const { requests } = stubFetch({
      'GET /api/v1/readlists': { json: page([buildReadList()]) },
      'POST /api/v1/readlists': { json: buildReadList({ id: 'rl-2', name: 'Holiday' }) },
    });
    const onClose = vi.fn();
    const { user } = renderScreen(<AddToReadListDialog open bookIds={['b1']} onClose={onClose} />, {
      user: buildAdmin(),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Add to read list' });
    expect(await within(dialog).findByText('1 book')).toBeInTheDocument();
    await fill(user, within(dialog).getByRole('textbox', { name: 'Search or create read list' }), 'Holiday');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Holiday',
      summary: '',
      ordered: true,
      bookIds: ['b1'],
    });
  });
});

describe('EditCollectionDialog', () => {
  it('requires a unique name and sends only what changed', async () => {
    const collection = collections[0]!;
    const { requests } = stubFetch({
      'GET /api/v1/collections': { json: page(collections) },
      'GET /api/v1/collections/c1/thumbnails': { json: [] },
      'PATCH /api/v1/collections/c1': { status: 204 },
    });
    const onClose = vi.fn();
    const { user } = renderScreen(<EditCollectionDialog open collection={collection} onClose={onClose} />, {
      user: buildAdmin(),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Edit collection' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    const save = within(dialog).getByRole('button', { name: 'Save changes' });
    await user.clear(name);
    expect(name).toHaveAccessibleDescription('Required');
    expect(save).toBeDisabled();
    await fill(user, name, 'space Opera');
    expect(await within(dialog).findByText('A collection with this name already exists')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await fill(user, name, ' classics');
    expect(save).toBeEnabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Manual ordering' }));
    await user.click(save);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ name: 'space Opera classics', ordered: true });
  });
});

describe('EditReadListDialog', () => {
  it('edits the summary and turns manual ordering off', async () => {
    const readList = buildReadList({ summary: 'Old' });
    const { requests } = stubFetch({
      'GET /api/v1/readlists': { json: page([readList]) },
      'PATCH /api/v1/readlists/rl-1': { status: 204 },
    });
    const onClose = vi.fn();
    const { user } = renderScreen(<EditReadListDialog open readList={readList} onClose={onClose} />, {
      user: buildAdmin(),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Edit read list' });
    expect(within(dialog).getByText(/books in a read list are ordered manually/)).toBeInTheDocument();
    await fill(user, within(dialog).getByRole('textbox', { name: 'Summary' }), ' and new');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Manual ordering' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ summary: 'Old and new', ordered: false });
  });
});
