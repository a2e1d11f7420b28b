import { useId, useState, type ReactNode } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import CheckBoxIcon from '@mui/icons-material/CheckBox';
import CheckBoxOutlineBlankIcon from '@mui/icons-material/CheckBoxOutlineBlank';
import CloseIcon from '@mui/icons-material/Close';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FilterListIcon from '@mui/icons-material/FilterList';
import FilterListOffIcon from '@mui/icons-material/FilterListOff';
import IndeterminateCheckBoxIcon from '@mui/icons-material/IndeterminateCheckBox';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import {
  clearGroup,
  cycleValue,
  isAllOf,
  setAllOf,
  valueState,
  type FilterGroup,
  type FilterState,
  type SortOption,
  type SortValue,
  type TriState,
} from './filters';

/** The toolbar button opening the drawer; highlighted, with a count, while filters or a non-default sort apply. */
export function FilterButton({ count, modified, onClick }: { count: number; modified: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('browse.filter.open')}>
      <IconButton
        aria-label={count ? t('browse.filter.openActive', { count }) : t('browse.filter.open')}
        onClick={onClick}
        color={modified ? 'secondary' : 'default'}
      >
        {/* The count is in the button's name; no hidden "0" beside it (axe: label-content-name-mismatch). */}
        <Badge badgeContent={count || null} color="secondary">
          <FilterListIcon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}

export interface FilterDrawerProps {
  open: boolean;
  onClose: () => void;
  /** Something differs from the defaults: offers the reset button. */
  modified: boolean;
  onReset: () => void;
  children: ReactNode;
}

/**
 * The filter and sort drawer (ui.md §2.5) on the inline end of the screen (it follows right-to-left), full width on
 * phones. The screen composes it from FilterToggleList, FilterPanel and SortList.
 */
export function FilterDrawer({ open, onClose, modified, onReset, children }: FilterDrawerProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      // Above the app bar, which sits over the navigation drawer.
      sx={{ zIndex: 'modal' }}
      slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { width: { xs: '100%', sm: 360 } } } }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, px: 2, py: 1, minHeight: 56 }}>
        <Typography id={titleId} variant="h6" component="h2" sx={{ flex: 1 }}>
          {t('browse.filter.title')}
        </Typography>
        {modified && (
          <Button
            size="small"
            startIcon={<FilterListOffIcon />}
            onClick={() => {
              onReset();
              onClose();
            }}
          >
            {t('browse.filter.reset')}
          </Button>
        )}
        <IconButton aria-label={t('common.close')} onClick={onClose} edge="end">
          <CloseIcon />
        </IconButton>
      </Stack>
      <Divider />
      <Box sx={{ overflowY: 'auto', flex: 1, pb: 2 }}>{children}</Box>
    </Drawer>
  );
}

const TRI_ICONS: Record<TriState, ReactNode> = {
  off: <CheckBoxOutlineBlankIcon />,
  include: <CheckBoxIcon color="secondary" />,
  exclude: <IndeterminateCheckBoxIcon color="secondary" />,
};

/** One tri-state row: off, included (check), excluded (minus). */
function TriStateRow({
  label,
  state,
  onClick,
  dense,
}: {
  label: string;
  state: TriState;
  onClick: () => void;
  dense?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <ListItemButton
      role="checkbox"
      aria-checked={state === 'include' ? 'true' : state === 'exclude' ? 'mixed' : 'false'}
      aria-label={state === 'exclude' ? t('browse.filter.excluded', { label }) : label}
      onClick={onClick}
      dense={dense}
      sx={{ py: dense ? 0 : undefined }}
    >
      <ListItemIcon sx={{ minWidth: 36 }}>{TRI_ICONS[state]}</ListItemIcon>
      <ListItemText
        primary={label}
        slotProps={{ primary: { sx: state === 'exclude' ? { textDecoration: 'line-through' } : undefined } }}
      />
    </ListItemButton>
  );
}

/** Filters shown as a plain list at the top of the drawer (read status, complete, one-shot, unavailable). */
export function FilterToggleList({
  groups,
  state,
  onChange,
}: {
  groups: FilterGroup[];
  state: FilterState;
  onChange: (state: FilterState) => void;
}) {
  return (
    <List dense>
      {groups.flatMap((group) =>
        group.values.map((value) => (
          <TriStateRow
            key={`${group.key}-${value.include}`}
            label={value.label}
            state={valueState(state, group.key, value)}
            onClick={() => onChange(cycleValue(state, group, value))}
          />
        )),
      )}
    </List>
  );
}

export function FilterSubheader({ children }: { children: ReactNode }) {
  return (
    <ListSubheader component="div" disableSticky sx={{ textTransform: 'uppercase', lineHeight: '40px' }}>
      {children}
    </ListSubheader>
  );
}

/** Above this many values a panel offers a box to narrow them down. */
const LOCAL_SEARCH_FROM = 12;

export interface FilterPanelProps {
  group: FilterGroup;
  state: FilterState;
  onChange: (state: FilterState) => void;
  loading?: boolean;
  /** Searches the server for more values (authors); the panel shows a search box and debounces nothing itself. */
  search?: { value: string; onChange: (value: string) => void; placeholder: string; pending?: boolean };
}

/** One group of values in an accordion panel: tri-state values, a clear button and the any/all switch. */
export function FilterPanel({ group, state, onChange, loading, search }: FilterPanelProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const count = (state[group.key] ?? []).length;
  const allOf = isAllOf(state, group.key);
  const disabled = !loading && group.values.length === 0 && !search;
  const needle = filter.trim().toLocaleLowerCase();
  const shown = needle ? group.values.filter((v) => v.label.toLocaleLowerCase().includes(needle)) : group.values;
  return (
    <Accordion
      disableGutters
      elevation={0}
      square
      disabled={disabled}
      slotProps={{ transition: { unmountOnExit: true } }}
      sx={{ bgcolor: 'transparent', '&::before': { opacity: 0.6 } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flex: 1, minWidth: 0 }}>
          <Typography variant="body2" sx={{ textTransform: 'uppercase', fontWeight: 500 }} noWrap>
            {group.label}
          </Typography>
          {count > 0 && <Chip size="small" color="secondary" label={count} />}
          {allOf && count > 0 && (
            <Typography variant="caption" color="text.secondary" noWrap>
              {t('browse.filter.allOf')}
            </Typography>
          )}
        </Stack>
      </AccordionSummary>
      <AccordionDetails sx={{ px: 0, pt: 0 }}>
        <Stack direction="row" sx={{ px: 2, pb: 1, gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          {group.anyAll && (
            <ToggleButtonGroup
              size="small"
              exclusive
              value={allOf ? 'allOf' : 'anyOf'}
              onChange={(_, v: 'allOf' | 'anyOf' | null) => v && onChange(setAllOf(state, group.key, v === 'allOf'))}
              aria-label={t('browse.filter.mode', { name: group.label })}
            >
              <ToggleButton value="anyOf">{t('browse.filter.anyOf')}</ToggleButton>
              <ToggleButton value="allOf">{t('browse.filter.allOf')}</ToggleButton>
            </ToggleButtonGroup>
          )}
          <Box sx={{ flex: 1 }} />
          {count > 0 && (
            <Button size="small" onClick={() => onChange(clearGroup(state, group.key))}>
              {t('browse.filter.clearGroup')}
            </Button>
          )}
        </Stack>
        {search ? (
          <Box sx={{ px: 2, pb: 1 }}>
            <TextField
              size="small"
              fullWidth
              value={search.value}
              onChange={(e) => search.onChange(e.target.value)}
              placeholder={search.placeholder}
              slotProps={{
                htmlInput: { 'aria-label': search.placeholder },
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      {search.pending ? <CircularProgress size={18} /> : <SearchIcon fontSize="small" />}
                    </InputAdornment>
                  ),
                },
              }}
            />
          </Box>
        ) : (
          group.values.length > LOCAL_SEARCH_FROM && (
            <Box sx={{ px: 2, pb: 1 }}>
              <TextField
                size="small"
                fullWidth
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                placeholder={t('browse.filter.narrow', { name: group.label })}
                slotProps={{ htmlInput: { 'aria-label': t('browse.filter.narrow', { name: group.label }) } }}
              />
            </Box>
          )
        )}
        {loading ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
            <CircularProgress size={24} aria-label={t('common.loading')} />
          </Box>
        ) : (
          <List dense disablePadding sx={{ maxHeight: 320, overflowY: 'auto' }} aria-label={group.label}>
            {shown.map((value) => (
              <TriStateRow
                key={value.include}
                dense
                label={value.label}
                state={valueState(state, group.key, value)}
                onClick={() => onChange(cycleValue(state, group, value))}
              />
            ))}
          </List>
        )}
      </AccordionDetails>
    </Accordion>
  );
}

/** The sort choices: one active at a time, its arrow showing the order; clicking it again flips the order. */
export function SortList({
  options,
  value,
  onChange,
}: {
  options: SortOption[];
  value: SortValue;
  onChange: (key: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <List dense aria-label={t('browse.filter.sort')}>
      {options.map((option) => {
        const active = option.key === value.key;
        return (
          <ListItemButton
            key={option.key}
            selected={active}
            aria-pressed={active}
            aria-label={
              active
                ? t(value.order === 'asc' ? 'browse.filter.sortedAsc' : 'browse.filter.sortedDesc', {
                    label: option.label,
                  })
                : option.label
            }
            onClick={() => onChange(option.key)}
          >
            <ListItemIcon sx={{ minWidth: 36 }}>
              {active &&
                (value.order === 'asc' ? <ArrowUpwardIcon fontSize="small" /> : <ArrowDownwardIcon fontSize="small" />)}
            </ListItemIcon>
            <ListItemText primary={option.label} />
          </ListItemButton>
        );
      })}
    </List>
  );
}
