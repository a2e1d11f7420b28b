import { useQuery } from '@tanstack/react-query';
import { getMetricOutsideTable } from './client';

/** Spring Boot's answer for one metric (api.md §9.1). */
export interface MetricDto {
  name: string;
  description: string | null;
  baseUnit: string | null;
  measurements: { statistic: string; value: number }[];
  availableTags: { tag: string; values: string[] }[];
}

/** Komga's metric names (api.md §9.1). */
export type MetricName =
  | 'komga.libraries'
  | 'komga.collections'
  | 'komga.readlists'
  | 'komga.series'
  | 'komga.books'
  | 'komga.books.filesize'
  | 'komga.sidecars'
  | 'komga.tasks.execution'
  | 'komga.tasks.failure';

/** Statistic → value, e.g. `{ VALUE: 12 }` or `{ COUNT: 3, TOTAL_TIME: 1.5, MAX: 0.9 }`. */
export type Statistics = Record<string, number>;

/** A metric in total and for each value of one of its tags. */
export interface MetricBreakdown {
  total: Statistics;
  byTag: { value: string; statistics: Statistics }[];
}

const statisticsOf = (m: MetricDto): Statistics =>
  Object.fromEntries(m.measurements.map((x) => [x.statistic, x.value]));

const getMetric = async (name: MetricName, tag?: string) =>
  (await getMetricOutsideTable(name, tag ? [tag] : [])) as MetricDto;

export const metricKeys = {
  all: ['metrics'] as const,
  breakdown: (name: MetricName, tag: string) => ['metrics', name, tag] as const,
};

/**
 * A metric and, for every value of its `tag`, the metric filtered on it: one request per value, as Komga's page does
 * (ui.md §13.4). A metric that does not exist (no library has any row yet) fails with a 404: its card is hidden.
 */
export const useMetricBreakdown = (name: MetricName, tag: string) =>
  useQuery({
    queryKey: metricKeys.breakdown(name, tag),
    queryFn: async (): Promise<MetricBreakdown> => {
      const metric = await getMetric(name);
      const values = metric.availableTags.find((t) => t.tag === tag)?.values ?? [];
      const byTag = await Promise.all(
        values.map(async (value) => ({ value, statistics: statisticsOf(await getMetric(name, `${tag}:${value}`)) })),
      );
      return { total: statisticsOf(metric), byTag };
    },
    retry: false,
  });

/** A metric without its tags (collections, read lists…). */
export const useMetricTotal = (name: MetricName) =>
  useQuery({
    queryKey: ['metrics', name] as const,
    queryFn: async () => statisticsOf(await getMetric(name)),
    retry: false,
  });
