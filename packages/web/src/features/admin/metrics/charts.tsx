import { useId } from 'react';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Group } from '@visx/group';
import { scaleLinear } from '@visx/scale';
import { Bar, Pie } from '@visx/shape';

/** ui.md §1.5: the metrics chart palette, in order. */
export const CHART_PALETTE = [
  '#7eb0d5',
  '#fd7f6f',
  '#b2e061',
  '#ffb55a',
  '#8bd3c7',
  '#ffee65',
  '#bd7ebe',
  '#fdcce5',
  '#beb9db',
  '#ea5545',
  '#f46a9b',
  '#ef9b20',
  '#edbf33',
  '#ede15b',
  '#bdcf32',
  '#87bc45',
  '#27aeef',
  '#b33dc6',
] as const;

/** One value of a chart: what it is called, its amount, and the amount as the reader's language writes it. */
export interface ChartItem {
  key: string;
  label: string;
  value: number;
  text: string;
}

const BAR_WIDTH = 160;
const BAR_HEIGHT = 14;

/**
 * A horizontal bar chart that is a table: each row names its item, draws its bar (the theme's primary colour, spec
 * §9) and writes its value, so screen readers read rows and cells while the bars show the proportions at a glance.
 */
export function BarChartTable({ items, columns }: { items: ChartItem[]; columns: [string, string] }) {
  const theme = useTheme();
  const max = Math.max(0, ...items.map((i) => i.value));
  const x = scaleLinear({ domain: [0, max || 1], range: [0, BAR_WIDTH] });
  const rtl = theme.direction === 'rtl';
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell>{columns[0]}</TableCell>
          <TableCell align="right">{columns[1]}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {items.map((item) => {
          const width = Math.max(item.value > 0 ? 1 : 0, x(item.value));
          return (
            <TableRow key={item.key}>
              <TableCell component="th" scope="row" sx={{ width: '45%' }}>
                {item.label}
              </TableCell>
              <TableCell align="right">
                <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1 }}>
                  <svg width={BAR_WIDTH} height={BAR_HEIGHT} aria-hidden focusable="false" style={{ flexShrink: 1 }}>
                    <Bar
                      x={rtl ? BAR_WIDTH - width : 0}
                      y={0}
                      width={width}
                      height={BAR_HEIGHT}
                      rx={2}
                      fill={theme.palette.primary.main}
                    />
                  </svg>
                  <Box component="span" sx={{ minWidth: '4.5em', fontVariantNumeric: 'tabular-nums' }}>
                    {item.text}
                  </Box>
                </Box>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

const DONUT = 180;

/**
 * A donut of each item's share, in the palette's colours, with a legend table (colour, name, value, share): the
 * reference's pies have no legend, but colour alone must not be the only way to tell the slices apart (WCAG 1.4.1).
 * The drawing is one image labelled with every item and its value.
 */
export function DonutChart({
  items,
  label,
  columns,
}: {
  items: ChartItem[];
  label: string;
  /** Headers of the legend: the item, its value, its share. */
  columns: [string, string, string];
}) {
  const theme = useTheme();
  const { i18n } = useTranslation();
  const titleId = useId();
  const total = items.reduce((n, i) => n + i.value, 0);
  const share = new Intl.NumberFormat(i18n.language || undefined, {
    style: 'percent',
    maximumFractionDigits: 0,
  });
  const colorOf = (index: number) => CHART_PALETTE[index % CHART_PALETTE.length]!;
  const summary = `${label}: ${items.map((i) => `${i.label} ${i.text}`).join(', ')}`;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
      <svg width={DONUT} height={DONUT} role="img" aria-labelledby={titleId}>
        <title id={titleId}>{summary}</title>
        <Group top={DONUT / 2} left={DONUT / 2}>
          {total > 0 ? (
            <Pie
              data={items}
              pieValue={(i) => i.value}
              outerRadius={DONUT / 2 - 2}
              innerRadius={DONUT / 4}
              pieSort={null}
            >
              {(pie) =>
                pie.arcs.map((arc, index) => (
                  <path
                    key={arc.data.key}
                    d={pie.path(arc) ?? ''}
                    fill={colorOf(index)}
                    stroke={theme.palette.background.paper}
                    strokeWidth={2}
                  >
                    <title>{`${arc.data.label}: ${arc.data.text}`}</title>
                  </path>
                ))
              }
            </Pie>
          ) : (
            <circle r={DONUT / 2 - 2} fill="none" stroke={theme.palette.divider} strokeWidth={DONUT / 4} />
          )}
        </Group>
      </svg>
      <Table size="small" sx={{ flex: '1 1 160px', width: 'auto' }}>
        <TableHead>
          <TableRow>
            <TableCell>{columns[0]}</TableCell>
            <TableCell align="right">{columns[1]}</TableCell>
            <TableCell align="right">{columns[2]}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((item, index) => (
            <TableRow key={item.key}>
              <TableCell component="th" scope="row">
                <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                  <Box
                    component="span"
                    aria-hidden
                    sx={{ flex: 'none', width: 12, height: 12, borderRadius: '2px', bgcolor: colorOf(index) }}
                  />
                  {item.label}
                </Box>
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {item.text}
              </TableCell>
              <TableCell align="right">{share.format(total ? item.value / total : 0)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** What a chart card shows while its metric loads. */
export function ChartSkeleton({ round }: { round?: boolean }) {
  return round ? (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
      <Skeleton variant="circular" width={DONUT} height={DONUT} />
      <Box sx={{ flex: 1 }}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} />
        ))}
      </Box>
    </Box>
  ) : (
    <Box>
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} height={28} />
      ))}
    </Box>
  );
}
