import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import CheckIcon from '@mui/icons-material/Check';
import ListItemIcon from '@mui/material/ListItemIcon';
import ViewModuleIcon from '@mui/icons-material/ViewModule';
import { useTranslation } from 'react-i18next';
import { setPreference, usePreferences, type CardSize } from '../../app/preferences';

/** Page sizes offered by every grid (ui.md §2.6). */
export const PAGE_SIZES = [20, 50, 100, 200, 500] as const;
const CARD_SIZES: CardSize[] = ['small', 'medium', 'large'];

/** The remembered page size, one of PAGE_SIZES. */
export function usePageSize(): number {
  const size = usePreferences((p) => p.browsingPageSize);
  return (PAGE_SIZES as readonly number[]).includes(size) ? size : PAGE_SIZES[0];
}

/** Back to the top of the screen when `value` (the page number) changes, not on first render. */
export function useScrollTopOnChange(value: unknown) {
  const last = useRef(value);
  useEffect(() => {
    if (Object.is(last.current, value)) return;
    last.current = value;
    window.scrollTo({ top: 0 });
  }, [value]);
}

export interface PagerProps {
  /** 1-based. */
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  /**
   * Keeps the pager's height while there is a single page or no answer yet, so that what is below does not move
   * when a second page turns up (a pager above a grid).
   */
  reserveSpace?: boolean;
}

/** Height of a reserved pager: a medium pagination (32 px) with some air. */
const PAGER_HEIGHT = 48;

/** Numbered paging (ui.md §2.6); fewer buttons on small screens; nothing for a single page. */
export function Pager({ page, totalPages, onChange, reserveSpace }: PagerProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const wide = useMediaQuery(theme.breakpoints.up('lg'));
  if (totalPages <= 1) return reserveSpace ? <Box sx={{ height: PAGER_HEIGHT }} /> : null;
  return (
    <Box
      component="nav"
      aria-label={t('browse.pager.label')}
      sx={{
        display: 'flex',
        justifyContent: 'center',
        alignItems: 'center',
        ...(reserveSpace ? { height: PAGER_HEIGHT } : { my: 2 }),
      }}
    >
      <Pagination
        page={Math.min(page, totalPages)}
        count={totalPages}
        onChange={(_, p) => onChange(p)}
        siblingCount={phone ? 0 : wide ? 3 : 1}
        boundaryCount={1}
        color="primary"
        shape="rounded"
        size={phone ? 'small' : 'medium'}
        getItemAriaLabel={(type, p, selected) =>
          type === 'page'
            ? t(selected ? 'browse.pager.current' : 'browse.pager.page', { page: p })
            : t(`browse.pager.${type}`)
        }
      />
    </Box>
  );
}

/** The toolbar menu of page size and poster size, both remembered for every grid. */
export function DisplayMenu({ pageSize = true }: { pageSize?: boolean }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const size = usePageSize();
  const cardSize = usePreferences((p) => p.cardSize);
  const close = () => setAnchor(null);
  return (
    <>
      <Tooltip title={t('browse.display.button')}>
        <IconButton
          aria-label={t('browse.display.button')}
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <ViewModuleIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={close}>
        {pageSize && <ListSubheader>{t('browse.display.pageSize')}</ListSubheader>}
        {pageSize &&
          PAGE_SIZES.map((n) => (
            <MenuItem
              key={n}
              selected={n === size}
              onClick={() => {
                setPreference('browsingPageSize', n);
                close();
              }}
            >
              <ListItemIcon>{n === size && <CheckIcon fontSize="small" />}</ListItemIcon>
              {t('browse.display.perPage', { count: n })}
            </MenuItem>
          ))}
        <ListSubheader>{t('browse.display.cardSize')}</ListSubheader>
        {CARD_SIZES.map((s) => (
          <MenuItem
            key={s}
            selected={s === cardSize}
            onClick={() => {
              setPreference('cardSize', s);
              close();
            }}
          >
            <ListItemIcon>{s === cardSize && <CheckIcon fontSize="small" />}</ListItemIcon>
            {t(`browse.display.sizes.${s}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
