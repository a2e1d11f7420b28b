import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { TASK_METRICS_WINDOW_MS, type LibraryFigures, type TaskMetricsRepository } from '../../domain/metrics.js';
import type { MetricsQueries } from '../../db/queries/metrics.js';
import { sendError } from '../plugins/errors.js';

const ACTUATOR_JSON = 'application/vnd.spring-boot.actuator.v3+json';

type Statistic = 'VALUE' | 'COUNT' | 'TOTAL_TIME' | 'MAX';

/** One meter of a metric: its tags and its samples (Micrometer's model, as Spring's metrics endpoint reads it). */
interface Meter {
  tags: Record<string, string>;
  samples: [Statistic, number][];
}

interface Metric {
  description: string;
  baseUnit: string | null;
  /** Every meter of the metric now; none means the metric does not exist (yet), as with an empty MultiGauge. */
  meters(): Promise<Meter[]>;
}

export interface MetricRouteDeps {
  queries: Pick<MetricsQueries, 'libraryFigures' | 'totals'>;
  taskMetrics: Pick<TaskMetricsRepository, 'figuresSince'>;
}

/**
 * `GET /actuator/metrics` and `GET /actuator/metrics/{name}?tag=key:value` (api.md §9.1, ADMIN): the meters Komga
 * publishes, answered in the shape and with the matching rules of Spring Boot's metrics endpoint. Plain routes like
 * the other actuator endpoints (`actuator.ts`), which Komga's OpenAPI document leaves out.
 *
 * Komga's meters: plain gauges (libraries, collections, read lists); one gauge per library for series, books, their
 * file size and sidecars (a MultiGauge, which exists only while some library has rows); a timer per task type and a
 * failure counter per type that failed, beside the untagged timer and counter registered at start-up. Here each
 * meter is computed when asked: gauges from SQL, tasks from the figures the runners record (the last 24 hours).
 */
export const metricRoutes: FastifyPluginAsync<MetricRouteDeps> = async (app, deps) => {
  const taskFigures = () => deps.taskMetrics.figuresSince(new Date(Date.now() - TASK_METRICS_WINDOW_MS));
  const total = (value: number): Meter => ({ tags: {}, samples: [['VALUE', value]] });
  const perLibrary = (pick: (f: LibraryFigures) => Map<string, number>) => async (): Promise<Meter[]> =>
    [...pick(await deps.queries.libraryFigures())].map(([library, value]) => ({
      tags: { library },
      samples: [['VALUE', value]],
    }));

  const metrics: Record<string, Metric> = {
    'komga.libraries': {
      description: 'The number of libraries',
      baseUnit: 'count',
      meters: async () => [total((await deps.queries.totals()).libraries)],
    },
    'komga.collections': {
      description: 'The number of collections',
      baseUnit: 'count',
      meters: async () => [total((await deps.queries.totals()).collections)],
    },
    'komga.readlists': {
      description: 'The number of readlists',
      baseUnit: 'count',
      meters: async () => [total((await deps.queries.totals()).readlists)],
    },
    'komga.series': { description: 'The number of series', baseUnit: 'count', meters: perLibrary((f) => f.series) },
    'komga.books': { description: 'The number of books', baseUnit: 'count', meters: perLibrary((f) => f.books) },
    'komga.books.filesize': {
      description: 'The cumulated filesize of books',
      baseUnit: 'bytes',
      meters: perLibrary((f) => f.booksFileSize),
    },
    'komga.sidecars': {
      description: 'The number of sidecars',
      baseUnit: 'count',
      meters: perLibrary((f) => f.sidecars),
    },
    'komga.tasks.execution': {
      description: 'Task execution time',
      baseUnit: 'seconds',
      meters: async () => [
        {
          tags: {},
          samples: [
            ['COUNT', 0],
            ['TOTAL_TIME', 0],
            ['MAX', 0],
          ],
        },
        ...(await taskFigures()).map((f): Meter => ({
          tags: { type: f.type },
          samples: [
            ['COUNT', f.count],
            ['TOTAL_TIME', f.totalMs / 1000],
            ['MAX', f.maxMs / 1000],
          ],
        })),
      ],
    },
    'komga.tasks.failure': {
      description: 'Count of failed tasks',
      baseUnit: null,
      meters: async () => [
        { tags: {}, samples: [['COUNT', 0]] },
        ...(await taskFigures())
          .filter((f) => f.failures > 0)
          .map((f): Meter => ({ tags: { type: f.type }, samples: [['COUNT', f.failures]] })),
      ],
    },
  };

  app.get('/actuator/metrics', { onRequest: app.requireRole('ADMIN') }, async (_req, reply) => {
    const names: string[] = [];
    for (const [name, metric] of Object.entries(metrics)) if ((await metric.meters()).length) names.push(name);
    reply.type(ACTUATOR_JSON);
    return { names: names.sort() };
  });

  app.get<{ Params: { name: string }; Querystring: { tag?: string[] } }>(
    '/actuator/metrics/:name',
    {
      onRequest: app.requireRole('ADMIN'),
      schema: { querystring: Type.Object({ tag: Type.Optional(Type.Array(Type.String())) }) },
    },
    async (req, reply) => {
      const filters: [string, string][] = [];
      for (const tag of req.query.tag ?? []) {
        const at = tag.indexOf(':');
        if (at < 0)
          return sendError(reply, req, 400, `Each tag parameter must be in the form 'key:value' but was: ${tag}`);
        filters.push([tag.slice(0, at), tag.slice(at + 1)]);
      }
      const metric = Object.hasOwn(metrics, req.params.name) ? metrics[req.params.name] : undefined;
      const meters = (await metric?.meters())?.filter((m) => filters.every(([k, v]) => m.tags[k] === v)) ?? [];
      // Spring answers 404 when no meter matches: an unknown name, a tag value no meter has, or a tag it lacks.
      if (!metric || meters.length === 0) return sendError(reply, req, 404, 'Not Found');
      reply.type(ACTUATOR_JSON);
      return {
        name: req.params.name,
        description: metric.description,
        baseUnit: metric.baseUnit,
        measurements: mergeSamples(meters),
        availableTags: availableTags(meters, new Set(filters.map(([k]) => k))),
      };
    },
  );
};

/** Spring's merge of the matching meters' samples: MAX is the largest, every other statistic the sum. */
function mergeSamples(meters: Meter[]) {
  const merged = new Map<Statistic, number>();
  for (const m of meters)
    for (const [statistic, value] of m.samples) {
      const before = merged.get(statistic);
      merged.set(
        statistic,
        before === undefined ? value : statistic === 'MAX' ? Math.max(before, value) : before + value,
      );
    }
  return [...merged].map(([statistic, value]) => ({ statistic, value }));
}

/** The tags of the matching meters, with their values, less the tags the request filtered on (as Spring does). */
function availableTags(meters: Meter[], filtered: Set<string>) {
  const tags = new Map<string, Set<string>>();
  for (const m of meters)
    for (const [tag, value] of Object.entries(m.tags))
      if (!filtered.has(tag)) (tags.get(tag) ?? tags.set(tag, new Set()).get(tag)!).add(value);
  return [...tags].map(([tag, values]) => ({ tag, values: [...values].sort() }));
}
