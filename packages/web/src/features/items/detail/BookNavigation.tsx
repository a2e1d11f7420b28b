import { useId, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import { useTheme } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BookDto } from '@quire/api';
import { useQuery } from '@tanstack/react-query';
import { bookQueries, useBooks, useNextBook, usePreviousBook } from '../../../api/books';
import { bookPath } from '../../../components/browse/format';

export interface BookNavigationProps {
  book: BookDto;
  /** Navigate within this read list instead of the series. */
  readListId?: string;
}

/**
 * Previous book, the list of every book around it, next book (ui.md §6): in the series, or in the read list the page
 * was opened from. The arrows point the reading way round in right-to-left languages.
 */
export function BookNavigation({ book, readListId }: BookNavigationProps) {
  const { t } = useTranslation();
  const rtl = useTheme().direction === 'rtl';
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const previous = usePreviousBook(book.id, readListId).data ?? null;
  const next = useNextBook(book.id, readListId).data ?? null;
  const inSeries = useBooks(
    {
      condition: { seriesId: { operator: 'is', value: book.seriesId } },
      unpaged: true,
      sort: ['metadata.numberSort,asc'],
    },
    { enabled: !readListId && !!anchor },
  );
  const inReadList = useQuery({
    ...bookQueries.inReadList(readListId ?? '', { unpaged: true }),
    enabled: !!readListId && !!anchor,
  });
  const siblings = (readListId ? inReadList.data : inSeries.data)?.content ?? [];

  const label = (b: BookDto) =>
    readListId
      ? t('items.book.readListEntry', { series: b.seriesTitle, number: b.metadata.number, title: b.metadata.title })
      : t('items.book.seriesEntry', { number: b.metadata.number, title: b.metadata.title });
  const PreviousIcon = rtl ? ChevronRightIcon : ChevronLeftIcon;
  const NextIcon = rtl ? ChevronLeftIcon : ChevronRightIcon;

  return (
    <>
      <Tooltip describeChild title={previous ? label(previous) : t('items.book.previous')}>
        <span>
          <IconButton
            aria-label={t('items.book.previous')}
            disabled={!previous}
            {...(previous ? { component: RouterLink, to: bookPath(previous, readListId) } : {})}
          >
            <PreviousIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t('items.book.allBooks')}>
        <IconButton
          aria-label={t('items.book.allBooks')}
          aria-haspopup="menu"
          aria-controls={anchor ? menuId : undefined}
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <FormatListBulletedIcon />
        </IconButton>
      </Tooltip>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        slotProps={{ paper: { sx: { maxHeight: '70vh', width: 280 } } }}
      >
        {siblings.length === 0 && (
          <MenuItem disabled>
            <ListItemText>{t('common.loading')}</ListItemText>
          </MenuItem>
        )}
        {siblings.map((b) => (
          <MenuItem
            key={b.id}
            component={RouterLink}
            to={bookPath(b, readListId)}
            selected={b.id === book.id}
            onClick={() => setAnchor(null)}
          >
            <ListItemText slotProps={{ primary: { noWrap: true, title: label(b) } }}>{label(b)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
      <Tooltip describeChild title={next ? label(next) : t('items.book.next')}>
        <span>
          <IconButton
            aria-label={t('items.book.next')}
            disabled={!next}
            {...(next ? { component: RouterLink, to: bookPath(next, readListId) } : {})}
          >
            <NextIcon />
          </IconButton>
        </span>
      </Tooltip>
    </>
  );
}
