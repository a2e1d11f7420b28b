import Chip, { type ChipProps } from '@mui/material/Chip';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SeriesDto } from '@quire/api';
import { languageName } from './format';
import { libraryBrowsePath } from './links';

/** Series status colours (ui.md §1.5). */
const STATUS_COLOR: Record<string, ChipProps['color']> = {
  ABANDONED: 'error',
  ENDED: 'success',
  HIATUS: 'warning',
  ONGOING: 'default',
};

/**
 * The series' facts as chips (ui.md §5): status, age rating and language each lead to the library filtered by them;
 * the reading direction is only shown.
 */
export function SeriesChips({
  series,
  locale,
  withStatus = true,
}: {
  series: SeriesDto;
  locale: string;
  withStatus?: boolean;
}) {
  const { t } = useTranslation();
  const m = series.metadata;
  const link = (filter: Parameters<typeof libraryBrowsePath>[1]) =>
    ({ component: RouterLink, to: libraryBrowsePath(series.libraryId, filter), clickable: true }) as const;
  return (
    <>
      {withStatus && m.status && (
        <Chip
          size="small"
          color={STATUS_COLOR[m.status] ?? 'default'}
          label={t(`items.seriesStatus.${m.status}`, { defaultValue: m.status })}
          {...link({ status: [m.status] })}
        />
      )}
      {m.ageRating !== null && (
        <Chip
          size="small"
          variant="outlined"
          label={t('items.series.ageRating', { age: m.ageRating })}
          {...link({ ageRating: [String(m.ageRating)] })}
        />
      )}
      {m.language && (
        <Chip
          size="small"
          variant="outlined"
          label={languageName(m.language, locale)}
          {...link({ language: [m.language] })}
        />
      )}
      {m.readingDirection && (
        <Chip
          size="small"
          variant="outlined"
          label={t(`items.readingDirection.${m.readingDirection}`, { defaultValue: m.readingDirection })}
        />
      )}
    </>
  );
}
