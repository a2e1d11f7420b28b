import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../../test/render';
import { buildAdmin, buildLibrary } from '../../../test/fixtures';

afterEach(() => vi.unstubAllGlobals());

type Figures = Record<string, Record<string, number>>;

/**
 * The actuator as the server answers it: `metrics[name]` maps each tag value ('' for no filter) to its statistics;
 * a name left out answers 404, as a per-library metric does before any library has rows.
 */
function stubMetrics(metrics: Record<string, { tag?: string; figures: Figures }>) {
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      requests.push(`${url.pathname}${url.search}`);
      const name = decodeURIComponent(url.pathname.replace('/actuator/metrics/', ''));
      const metric = metrics[name];
      const filter = url.searchParams.get('tag');
      const figures = metric?.figures[filter ? filter.slice(filter.indexOf(':') + 1) : ''];
      if (!metric || !figures) return new Response(JSON.stringify({ status: 404 }), { status: 404 });
      const values = Object.keys(metric.figures).filter((v) => v !== '');
      const body = {
        name,
        description: null,
        baseUnit: null,
        measurements: Object.entries(figures).map(([statistic, value]) => ({ statistic, value })),
        availableTags: metric.tag && !filter && values.length ? [{ tag: metric.tag, values }] : [],
      };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return requests;
}

const libraries = [buildLibrary({ id: 'L1', name: 'Comics' }), buildLibrary({ id: 'L2', name: 'Manga' })];
const MB = 1000 * 1000;

/** The body rows of a card's table, each as the texts of its cells. */
const rowsOf = (region: HTMLElement) =>
  [...region.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));

describe('metrics page', () => {
  it('charts tasks by type, the all-libraries figures and the per-library donuts; a failed metric hides its card', async () => {
    const requests = stubMetrics({
      'komga.tasks.execution': {
        tag: 'type',
        figures: {
          '': { COUNT: 6, TOTAL_TIME: 3.4, MAX: 2 },
          ScanLibrary: { COUNT: 2, TOTAL_TIME: 2.6, MAX: 2 },
          AnalyzeBook: { COUNT: 4, TOTAL_TIME: 0.8, MAX: 0.3 },
        },
      },
      'komga.books.filesize': {
        tag: 'library',
        figures: { '': { VALUE: 4 * MB }, L1: { VALUE: 3 * MB }, L2: { VALUE: MB } },
      },
      'komga.books': { tag: 'library', figures: { '': { VALUE: 5 }, L1: { VALUE: 4 }, L2: { VALUE: 1 } } },
      'komga.series': { tag: 'library', figures: { '': { VALUE: 3 }, L1: { VALUE: 2 }, L2: { VALUE: 1 } } },
      // komga.sidecars: no library has any, so the metric does not exist.
      'komga.collections': { figures: { '': { VALUE: 2 } } },
      'komga.readlists': { figures: { '': { VALUE: 1 } } },
    });
    renderScreen(null, { route: '/settings/metrics', user: buildAdmin(), libraries });

    const executed = await screen.findByRole('region', { name: 'Tasks executed' });
    expect(await within(executed).findByRole('rowheader', { name: 'Analyze book' })).toBeInTheDocument();
    expect(rowsOf(executed)).toEqual([
      ['Analyze book', '4'],
      ['Scan library', '2'],
    ]);
    expect(rowsOf(screen.getByRole('region', { name: 'Tasks total time' }))).toEqual([
      ['Scan library', '2.6 sec'],
      ['Analyze book', '0.8 sec'],
    ]);

    const all = screen.getByRole('region', { name: 'All libraries' });
    await within(all).findByText('4 MB');
    expect(rowsOf(all)).toEqual([
      ['Disk space', '4 MB'],
      ['Series', '3'],
      ['Books', '5'],
      ['Collections', '2'],
      ['Read lists', '1'],
    ]);
    expect(within(all).queryByRole('rowheader', { name: 'Sidecars' })).not.toBeInTheDocument();

    const books = screen.getByRole('region', { name: 'Books per library' });
    expect(await within(books).findByRole('img', { name: 'Books per library: Comics 4, Manga 1' })).toBeInTheDocument();
    expect(rowsOf(books)).toEqual([
      ['Comics', '4', '80%'],
      ['Manga', '1', '20%'],
    ]);
    const disk = screen.getByRole('region', { name: 'Library disk space' });
    expect(
      await within(disk).findByRole('img', { name: 'Library disk space: Comics 3 MB, Manga 1 MB' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Series per library' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Sidecars per library' })).not.toBeInTheDocument();

    // One request per tag value, as Komga's page asks.
    expect(requests).toContain('/actuator/metrics/komga.books?tag=library%3AL1');
    expect(requests).toContain('/actuator/metrics/komga.tasks.execution?tag=type%3AScanLibrary');
  });

  it('says so when no task ran, and shows skeletons while the metrics load', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const answer = (body: unknown) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        await held;
        const name = new URL(String(input), 'http://localhost').pathname.replace('/actuator/metrics/', '');
        if (name !== 'komga.tasks.execution') return new Response('{}', { status: 404 });
        return answer({ name, measurements: [{ statistic: 'COUNT', value: 0 }], availableTags: [] });
      }),
    );
    renderScreen(null, { route: '/settings/metrics', user: buildAdmin(), libraries });
    const executed = await screen.findByRole('region', { name: 'Tasks executed' });
    expect(executed.querySelector('.MuiSkeleton-root')).not.toBeNull();
    release();
    expect(await within(executed).findByText('No task ran in the last 24 hours.')).toBeInTheDocument();
    // Every per-library metric failed (404): only the task cards and the all-libraries table are left.
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Books per library' })).not.toBeInTheDocument());
  });
});
