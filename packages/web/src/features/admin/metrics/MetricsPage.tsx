import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { UseQueryResult } from '@tanstack/react-query';
import { useLibraries } from '../../../api/libraries';
import { useMetricBreakdown, useMetricTotal, type MetricBreakdown, type Statistics } from '../../../api/metrics';
import { useFileSizeFormat } from '../../../i18n/format';
import { BarChartTable, ChartSkeleton, DonutChart, type ChartItem } from './charts';

/** A card with its heading; the chart region is named by the heading. */
function ChartCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-label={title}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="body2" color="text.secondary" gutterBottom>
            {subtitle}
          </Typography>
        )}
        <Box sx={{ mt: 1 }}>{children}</Box>
      </CardContent>
    </Card>
  );
}

function useFormats() {
  const { i18n } = useTranslation();
  const locale = i18n.language || undefined;
  const number = new Intl.NumberFormat(locale);
  // Whole seconds as ui.md has them, but tenths under 10 s: most tasks take less than one, and "0 s" says nothing.
  const seconds = (digits: number) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', maximumFractionDigits: digits });
  const [tenths, whole] = [seconds(1), seconds(0)];
  return {
    count: (n: number) => number.format(n),
    seconds: (n: number) => (n < 10 ? tenths : whole).format(n),
    bytes: useFileSizeFormat(),
  };
}

/** Tasks executed and their total time per type over the last 24 hours: two bar charts from one metric. */
function TaskCards() {
  const { t } = useTranslation();
  const tasks = useMetricBreakdown('komga.tasks.execution', 'type');
  const format = useFormats();
  if (tasks.isError) return null;
  const typeLabel = (type: string) => t(`libraries.taskTypes.${type}`, { defaultValue: type });
  const chart = (statistic: 'COUNT' | 'TOTAL_TIME', text: (n: number) => string, column: string) => {
    if (!tasks.data) return <ChartSkeleton />;
    if (!tasks.data.byTag.length) return <Typography color="text.secondary">{t('metrics.noTasks')}</Typography>;
    const items: ChartItem[] = tasks.data.byTag
      .map(({ value, statistics }) => {
        const amount = statistics[statistic] ?? 0;
        return { key: value, label: typeLabel(value), value: amount, text: text(amount) };
      })
      .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
    return <BarChartTable items={items} columns={[t('metrics.columns.task'), column]} />;
  };
  return (
    <>
      <ChartCard title={t('metrics.tasksExecuted')} subtitle={t('metrics.lastDay')}>
        {chart('COUNT', format.count, t('metrics.columns.executed'))}
      </ChartCard>
      <ChartCard title={t('metrics.tasksTotalTime')} subtitle={t('metrics.lastDay')}>
        {chart('TOTAL_TIME', format.seconds, t('metrics.columns.totalTime'))}
      </ChartCard>
    </>
  );
}

/** One per-library metric as a donut, library ids shown by their names. */
function LibraryDonut({
  title,
  metric,
  text,
}: {
  title: string;
  metric: UseQueryResult<MetricBreakdown>;
  text: (n: number) => string;
}) {
  const { t } = useTranslation();
  const libraries = useLibraries();
  if (metric.isError) return null;
  const nameOf = (id: string) => libraries.data?.find((l) => l.id === id)?.name ?? id;
  const items: ChartItem[] | undefined = metric.data?.byTag.map(({ value, statistics }) => ({
    key: value,
    label: nameOf(value),
    value: statistics.VALUE ?? 0,
    text: text(statistics.VALUE ?? 0),
  }));
  return (
    <ChartCard title={title}>
      {items && libraries.data ? (
        <DonutChart
          items={items}
          label={title}
          columns={[t('metrics.columns.library'), t('metrics.columns.value'), t('metrics.columns.share')]}
        />
      ) : (
        <ChartSkeleton round />
      )}
    </ChartCard>
  );
}

/** One figure of the all-libraries table: its value once loaded; `failed` leaves the row out. */
interface Figure {
  label: string;
  value: number | undefined;
  failed: boolean;
  text: (n: number) => string;
}

/** A figure from a metric's query: its VALUE statistic. */
const figureOf = (label: string, q: { data?: Statistics; isError: boolean }, text: (n: number) => string): Figure => ({
  label,
  value: q.data ? (q.data.VALUE ?? 0) : undefined,
  failed: q.isError,
  text,
});

/** The all-libraries figures; a row whose metric failed is left out, as a failed metric's card is. */
function AllLibrariesCard({ figures }: { figures: Figure[] }) {
  const { t } = useTranslation();
  return (
    <ChartCard title={t('metrics.allLibraries')}>
      <Table size="small">
        <TableBody>
          {figures
            .filter((f) => !f.failed)
            .map((f) => (
              <TableRow key={f.label}>
                <TableCell component="th" scope="row">
                  {f.label}
                </TableCell>
                <TableCell align="right">
                  {f.value === undefined ? <Skeleton width={60} sx={{ display: 'inline-block' }} /> : f.text(f.value)}
                </TableCell>
              </TableRow>
            ))}
        </TableBody>
      </Table>
    </ChartCard>
  );
}

/**
 * `/settings/metrics` (ui.md §13.4, admins): tasks executed and their time by type, the all-libraries figures and
 * the per-library donuts, from the actuator's metrics. Each card shows a skeleton while its metric loads and is
 * hidden if its metric fails (a per-library metric does not exist before some library has rows).
 */
export function MetricsPage() {
  const { t } = useTranslation();
  const format = useFormats();
  const filesize = useMetricBreakdown('komga.books.filesize', 'library');
  const books = useMetricBreakdown('komga.books', 'library');
  const series = useMetricBreakdown('komga.series', 'library');
  const sidecars = useMetricBreakdown('komga.sidecars', 'library');
  const collections = useMetricTotal('komga.collections');
  const readlists = useMetricTotal('komga.readlists');
  const total = (q: UseQueryResult<MetricBreakdown>) => ({ data: q.data?.total, isError: q.isError });

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1">
        {t('metrics.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 420px), 1fr))' }}>
        <TaskCards />
        <AllLibrariesCard
          figures={[
            figureOf(t('metrics.diskSpace'), total(filesize), format.bytes),
            figureOf(t('metrics.series'), total(series), format.count),
            figureOf(t('metrics.books'), total(books), format.count),
            figureOf(t('metrics.collections'), collections, format.count),
            figureOf(t('metrics.readLists'), readlists, format.count),
            figureOf(t('metrics.sidecars'), total(sidecars), format.count),
          ]}
        />
        <LibraryDonut title={t('metrics.libraryDiskSpace')} metric={filesize} text={format.bytes} />
        <LibraryDonut title={t('metrics.booksPerLibrary')} metric={books} text={format.count} />
        <LibraryDonut title={t('metrics.seriesPerLibrary')} metric={series} text={format.count} />
        <LibraryDonut title={t('metrics.sidecarsPerLibrary')} metric={sidecars} text={format.count} />
      </Box>
    </Stack>
  );
}
