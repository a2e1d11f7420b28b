import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { SeriesDto } from '@quire/api';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildLibrary, buildUser } from '../../test/fixtures';
import { stubFetch } from '../../features/account/fetch-stub';
import type { SelectableCardProps } from './ItemCard';
import { ItemGrid } from './ItemGrid';
import { SelectionBar } from './SelectionBar';
import { SeriesCard } from './SeriesCard';
import { useSelection } from './selection';
import { buildSeries } from '../../test/fixtures';

afterEach(() => vi.unstubAllGlobals());

const names = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta'];
const items: SeriesDto[] = names.map((title, i) => buildSeries({ id: `s${i + 1}` }, { title }));

function Grid() {
  const selection = useSelection();
  return (
    <>
      <SelectionBar selection={selection} page={{ kind: 'series', items }} />
      <ItemGrid
        kind="series"
        items={items}
        selection={selection}
        label="Series"
        renderItem={(series, select) => <SeriesCard series={series} {...select} />}
      />
    </>
  );
}

function render(user = buildUser()) {
  const net = stubFetch({ 'POST /api/v1/series/s2/read-progress': { status: 204 } });
  return { ...net, ...renderScreen(<Grid />, { user, libraries: [buildLibrary()] }) };
}

const circle = (name: string) => screen.getByRole('button', { name: `Select ${name}` });
const selected = () =>
  names.filter((n) => screen.getByRole('button', { name: `Select ${n}` }).getAttribute('aria-pressed') === 'true');

describe('ItemGrid selection', () => {
  it('shows skeletons while loading', () => {
    stubFetch({});
    renderScreen(<ItemGrid kind="series" items={undefined} label="Series" skeletons={4} renderItem={() => null} />);
    expect(screen.getByRole('list', { name: 'Series' })).toHaveAttribute('aria-busy', 'true');
  });

  it('selects a range with shift-click, and a second shift-click replaces the range', async () => {
    const { user } = render();
    await user.click(circle('Beta'));
    expect(screen.getByRole('toolbar', { name: 'Selection' })).toHaveTextContent('1 selected');

    await user.keyboard('{Shift>}');
    await user.click(circle('Epsilon'));
    await user.keyboard('{/Shift}');
    expect(selected()).toEqual(['Beta', 'Gamma', 'Delta', 'Epsilon']);

    await user.keyboard('{Shift>}');
    await user.click(circle('Gamma'));
    await user.keyboard('{/Shift}');
    expect(selected()).toEqual(['Beta', 'Gamma']);
    expect(screen.getByText('2 selected')).toBeInTheDocument();
  });

  it('selects from the first item when nothing was clicked before the shift-click', async () => {
    const { user } = render();
    await user.keyboard('{Shift>}');
    await user.click(circle('Gamma'));
    await user.keyboard('{/Shift}');
    expect(selected()).toEqual(['Alpha', 'Beta', 'Gamma']);
  });

  it('toggles with a click on the card while selecting, and selects the whole page', async () => {
    const { user, location } = render();
    const zetaMenu = () => screen.queryByRole('button', { name: 'Actions for Zeta' });
    expect(await screen.findByRole('button', { name: 'Actions for Zeta' })).toBeInTheDocument();
    await user.click(circle('Alpha'));
    // the cards' menus and read buttons are out of the way meanwhile (hidden by the grid's style)
    expect(zetaMenu()).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Zeta' }));
    expect(location()).toBe('/');
    expect(selected()).toEqual(['Alpha', 'Zeta']);
    await user.click(screen.getByRole('link', { name: 'Alpha' }));
    expect(selected()).toEqual(['Zeta']);

    await user.click(screen.getByRole('button', { name: 'Select everything on this page' }));
    expect(selected()).toEqual(names);
    await user.click(screen.getByRole('button', { name: 'Deselect all' }));
    expect(selected()).toEqual([]);
    expect(screen.queryByRole('toolbar', { name: 'Selection' })).not.toBeInTheDocument();
    expect(zetaMenu()).toBeInTheDocument();
  });

  it('offers readers marking read, and admins also editing, adding and deleting', async () => {
    const { user, requests, unmount } = render();
    await user.click(circle('Beta'));
    expect(screen.getByRole('button', { name: 'Mark as read' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark as read' }));
    await waitFor(() =>
      expect(requests.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/v1/series/s2/read-progress'),
    );
    // Done: the selection empties.
    await waitFor(() => expect(screen.queryByRole('toolbar', { name: 'Selection' })).not.toBeInTheDocument());
    unmount();

    const admin = render(buildAdmin());
    await admin.user.click(circle('Beta'));
    for (const action of ['Mark as read', 'Mark as unread', 'Add to collection', 'Add to read list', 'Edit', 'Delete'])
      expect(screen.getByRole('button', { name: action })).toBeInTheDocument();
  });
});

describe('ItemGrid rendering', () => {
  /** The real cards, counting the renders of each: `renderItem` is the same function from render to render. */
  const renders = new Map<string, number>();
  const countedCard = (series: SeriesDto, select: SelectableCardProps) => {
    renders.set(series.id, (renders.get(series.id) ?? 0) + 1);
    return <SeriesCard series={series} {...select} />;
  };
  function CountedGrid() {
    const selection = useSelection();
    return (
      <>
        <SelectionBar selection={selection} page={{ kind: 'series', items }} />
        <ItemGrid kind="series" items={items} selection={selection} label="Series" renderItem={countedCard} />
      </>
    );
  }
  const rendersNow = () => Object.fromEntries(items.map((s) => [s.id, renders.get(s.id) ?? 0]));
  const since = (before: Record<string, number>) =>
    items.filter((s) => (renders.get(s.id) ?? 0) > before[s.id]!).map((s) => s.metadata.title);

  it('renders again only the cards whose selection changed', async () => {
    stubFetch({});
    renders.clear();
    const { user } = renderScreen(<CountedGrid />, { user: buildUser(), libraries: [buildLibrary()] });

    // the first pick shows every card's selection circle, by the grid's style: only the card picked renders again
    let before = rendersNow();
    await user.click(circle('Beta'));
    expect(since(before)).toEqual(['Beta']);
    expect(screen.getByRole('list', { name: 'Series' })).toHaveAttribute('data-selecting');

    // then only the card picked, whatever else the screen renders (the selection bar's count)
    before = rendersNow();
    await user.click(circle('Delta'));
    expect(screen.getByRole('toolbar', { name: 'Selection' })).toHaveTextContent('2 selected');
    expect(since(before)).toEqual(['Delta']);

    before = rendersNow();
    await user.click(circle('Beta'));
    expect(selected()).toEqual(['Delta']);
    expect(since(before)).toEqual(['Beta']);

    // and the last one ends the selection the same way
    before = rendersNow();
    await user.click(circle('Delta'));
    expect(since(before)).toEqual(['Delta']);
    expect(screen.getByRole('list', { name: 'Series' })).not.toHaveAttribute('data-selecting');
  });
});
