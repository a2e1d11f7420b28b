import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useTranslation } from 'react-i18next';
import { CardSkeleton } from './ItemCard';

export interface HorizontalScrollerProps {
  title: string;
  /** "See all" leads here. */
  seeAllTo?: string;
  /** Something next to the title, e.g. a count. */
  titleExtra?: ReactNode;
  /** One child per card; each is given the row's card width. */
  children: ReactNode[] | undefined;
  /** Fetches the next page when the user scrolls near the end. */
  onLoadMore?: () => void;
  hasMore?: boolean;
  loadingMore?: boolean;
  /** Card width in px (120 on phones). */
  cardWidth?: number;
  /** Skeleton count while `children` is undefined. */
  skeletons?: number;
}

/** Within this share of the scroll width from the end, the next page is fetched. */
const LOAD_AHEAD = 0.95;

/**
 * A titled row of cards that scrolls sideways (ui.md §2.7): ‹ › buttons move by a screenful (right-to-left aware),
 * the scrollbar is hidden, touch and trackpad scroll natively, and the next page arrives as the end comes near.
 */
export function HorizontalScroller({
  title,
  seeAllTo,
  titleExtra,
  children,
  onLoadMore,
  hasMore,
  loadingMore,
  cardWidth = 150,
  skeletons = 8,
}: HorizontalScrollerProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const rtl = theme.direction === 'rtl';
  const headingId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ start: true, end: true });

  const update = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    // In right-to-left, scrollLeft runs from 0 down to negative values.
    const offset = Math.abs(el.scrollLeft);
    const max = el.scrollWidth - el.clientWidth;
    const start = offset <= 1;
    const end = offset >= max - 1;
    // The same state again would render the row and its cards' wrappers for nothing (on every scroll event).
    setEdges((e) => (e.start === start && e.end === end ? e : { start, end }));
    if (hasMore && !loadingMore && onLoadMore && offset + el.clientWidth >= el.scrollWidth * LOAD_AHEAD) onLoadMore();
  }, [hasMore, loadingMore, onLoadMore]);

  useEffect(() => {
    update();
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, [update, children?.length]);

  const scroll = (direction: 1 | -1) => {
    const el = ref.current;
    if (!el) return;
    const distance = Math.max(el.clientWidth - 100, cardWidth);
    el.scrollBy({ left: direction * distance * (rtl ? -1 : 1), behavior: 'smooth' });
  };

  const width = { xs: Math.min(cardWidth, 120), sm: cardWidth };
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 3 }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, mb: 1, minHeight: 40 }}>
        <Typography id={headingId} variant="h6" component="h2" noWrap sx={{ minWidth: 0 }}>
          {title}
        </Typography>
        {titleExtra}
        {seeAllTo && (
          <Button component={RouterLink} to={seeAllTo} size="small" sx={{ flexShrink: 0 }}>
            {t('browse.scroller.seeAll')}
          </Button>
        )}
        <Box sx={{ flex: 1 }} />
        <IconButton
          aria-label={t('browse.scroller.previous', { title })}
          disabled={edges.start}
          onClick={() => scroll(-1)}
          size="small"
        >
          {rtl ? <ChevronRightIcon /> : <ChevronLeftIcon />}
        </IconButton>
        <IconButton
          aria-label={t('browse.scroller.next', { title })}
          disabled={edges.end}
          onClick={() => scroll(1)}
          size="small"
        >
          {rtl ? <ChevronLeftIcon /> : <ChevronRightIcon />}
        </IconButton>
      </Stack>
      <Box
        ref={ref}
        role="list"
        aria-labelledby={headingId}
        onScroll={update}
        sx={{
          display: 'flex',
          gap: 2,
          overflowX: 'auto',
          overflowY: 'hidden',
          scrollbarWidth: 'none',
          '&::-webkit-scrollbar': { display: 'none' },
          overscrollBehaviorX: 'contain',
          pb: 0.5,
        }}
      >
        {(children ?? Array.from({ length: skeletons }, (_, i) => <CardSkeleton key={`s${i}`} />)).map((child, i) => (
          <Box key={(child as { key?: string | null })?.key ?? i} role="listitem" sx={{ flex: '0 0 auto', width }}>
            {child}
          </Box>
        ))}
        {loadingMore &&
          [0, 1, 2].map((i) => (
            <Box key={`more${i}`} aria-hidden sx={{ flex: '0 0 auto', width }}>
              <CardSkeleton />
            </Box>
          ))}
      </Box>
    </Box>
  );
}

/** A row's placeholder while its content loads: a title line and a few cards. */
export function ScrollerSkeleton({ cardWidth = 150, cards = 8 }: { cardWidth?: number; cards?: number }) {
  const { t } = useTranslation();
  const width = { xs: Math.min(cardWidth, 120), sm: cardWidth };
  return (
    <Box role="progressbar" aria-busy="true" aria-label={t('common.loading')} sx={{ mb: 3 }}>
      <Skeleton variant="text" width={220} sx={{ fontSize: '1.25rem', mb: 1, minHeight: 40 }} />
      <Box sx={{ display: 'flex', gap: 2, overflow: 'hidden' }}>
        {Array.from({ length: cards }, (_, i) => (
          <Box key={i} sx={{ flex: '0 0 auto', width }}>
            <CardSkeleton />
          </Box>
        ))}
      </Box>
    </Box>
  );
}
