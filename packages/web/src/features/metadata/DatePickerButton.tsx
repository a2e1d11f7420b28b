import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useTranslation } from 'react-i18next';
import { dateProblem } from './validation';

/** First day of the week in the locale, 1 (Monday) to 7 (Sunday); 1 when the browser cannot tell (spec §9). */
export function firstDayOfWeek(locale: string): number {
  try {
    const l = new Intl.Locale(locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    return l.getWeekInfo?.().firstDay ?? l.weekInfo?.firstDay ?? 1;
  } catch {
    return 1;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
const isoOf = (y: number, m: number, d: number) => `${String(y).padStart(4, '0')}-${pad(m + 1)}-${pad(d)}`;

/** Weekday (1 Monday … 7 Sunday) of a UTC date. */
const isoWeekday = (date: Date) => ((date.getUTCDay() + 6) % 7) + 1;

/** The days of a month as rows of seven cells (null before the first and after the last day). */
export function monthGrid(year: number, month: number, firstDay: number): (number | null)[][] {
  const lead = (isoWeekday(new Date(Date.UTC(year, month, 1))) - firstDay + 7) % 7;
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const cells: (number | null)[] = [...Array<null>(lead).fill(null), ...Array.from({ length: days }, (_, i) => i + 1)];
  while (cells.length % 7) cells.push(null);
  const rows: (number | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) rows.push(cells.slice(i, i + 7));
  return rows;
}

/**
 * The calendar button of a `YYYY-MM-DD` field: a month view in the interface language whose weeks start on the
 * locale's first day. Picking a day writes it into the field.
 */
export function DatePickerButton({ value, onPick }: { value: string; onPick: (iso: string) => void }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const locale = i18n.language || 'en';
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const valid = value && !dateProblem(value);
  const today = new Date();
  const start = valid
    ? { y: Number(value.slice(0, 4)), m: Number(value.slice(5, 7)) - 1 }
    : { y: today.getFullYear(), m: today.getMonth() };
  const [view, setView] = useState(start);

  const firstDay = firstDayOfWeek(locale);
  const weekdays = Array.from({ length: 7 }, (_, i) => ((firstDay - 1 + i) % 7) + 1);
  // 2024-01-01 was a Monday: day d of that week is the weekday d.
  const weekdayName = (d: number, style: 'narrow' | 'long') =>
    new Intl.DateTimeFormat(locale, { weekday: style, timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, d)));
  const monthTitle = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(view.y, view.m, 1)),
  );
  const dayLabel = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' });
  const shift = (delta: number) =>
    setView((v) => {
      const d = new Date(Date.UTC(v.y, v.m + delta, 1));
      return { y: d.getUTCFullYear(), m: d.getUTCMonth() };
    });
  const flip = theme.direction === 'rtl' ? { transform: 'scaleX(-1)' } : undefined;

  return (
    <InputAdornment position="end">
      <IconButton
        aria-label={t('metadata.date.choose')}
        edge="end"
        onClick={(e) => {
          setView(start);
          setAnchor(e.currentTarget);
        }}
      >
        <CalendarMonthIcon />
      </IconButton>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ p: 1.5, width: 300 }} role="dialog" aria-label={t('metadata.date.choose')}>
          <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
            <IconButton aria-label={t('metadata.date.previousMonth')} onClick={() => shift(-1)} size="small">
              <ChevronLeftIcon sx={flip} />
            </IconButton>
            <Typography aria-live="polite" sx={{ flex: 1, textAlign: 'center', fontWeight: 500 }}>
              {monthTitle}
            </Typography>
            <IconButton aria-label={t('metadata.date.nextMonth')} onClick={() => shift(1)} size="small">
              <ChevronRightIcon sx={flip} />
            </IconButton>
          </Stack>
          <Box role="grid" aria-label={monthTitle}>
            <Box role="row" sx={{ display: 'grid', gridTemplateColumns: 'repeat(7, 1fr)' }}>
              {weekdays.map((d) => (
                <Typography
                  key={d}
                  role="columnheader"
                  aria-label={weekdayName(d, 'long')}
                  variant="caption"
                  color="text.secondary"
                  sx={{ textAlign: 'center', py: 0.5 }}
                >
                  {weekdayName(d, 'narrow')}
                </Typography>
              ))}
            </Box>
            {monthGrid(view.y, view.m, firstDay).map((row, r) => (
              <Box key={r} role="row" sx={{ display: 'grid', gridTemplateColumns: 'repeat(7, 1fr)' }}>
                {row.map((day, c) => {
                  if (day === null) return <Box key={c} role="gridcell" />;
                  const iso = isoOf(view.y, view.m, day);
                  const selected = iso === value;
                  return (
                    <Box key={c} role="gridcell" sx={{ display: 'flex', justifyContent: 'center' }}>
                      <Button
                        size="small"
                        variant={selected ? 'contained' : 'text'}
                        aria-label={dayLabel.format(new Date(Date.UTC(view.y, view.m, day)))}
                        aria-pressed={selected}
                        onClick={() => {
                          onPick(iso);
                          setAnchor(null);
                        }}
                        sx={{ minWidth: 0, width: 36, height: 36, borderRadius: '50%', p: 0 }}
                      >
                        {new Intl.NumberFormat(locale).format(day)}
                      </Button>
                    </Box>
                  );
                })}
              </Box>
            ))}
          </Box>
        </Box>
      </Popover>
    </InputAdornment>
  );
}
