import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import type { GroupCountDto } from '../../api/series';

/** The letters of the navigation, each with the title prefixes it stands for (lower case). */
export interface LetterGroup {
  symbol: string;
  prefixes: string[];
}

export const ALL = 'ALL';
export const OTHERS = '#';

/** A to Z, the default grouping. */
export const LATIN_GROUPS: LetterGroup[] = Array.from({ length: 26 }, (_, i) => {
  const letter = String.fromCharCode(65 + i);
  return { symbol: letter, prefixes: [letter.toLowerCase()] };
});

/** Series count per symbol (plus ALL and #) from the server's counts per first character. */
export function countByLetter(counts: readonly GroupCountDto[], groups: readonly LetterGroup[]) {
  const byGroup = new Map<string, number>();
  for (const c of counts) byGroup.set(c.group.toLowerCase(), (byGroup.get(c.group.toLowerCase()) ?? 0) + c.count);
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  const result: Record<string, number> = { [ALL]: total };
  let inGroups = 0;
  for (const g of groups) {
    const n = g.prefixes.reduce((sum, p) => sum + (byGroup.get(p) ?? 0), 0);
    result[g.symbol] = n;
    inGroups += n;
  }
  result[OTHERS] = total - inGroups;
  return result;
}

export interface AlphabeticalNavProps {
  /** `ALL`, `#` or a group symbol. */
  selected: string;
  onSelect: (symbol: string) => void;
  counts: readonly GroupCountDto[] | undefined;
  groups?: readonly LetterGroup[];
}

/**
 * Jump to series by the first letter of their sort title (ui.md §2.6): ALL, # (anything else), then each group.
 * Empty letters are disabled unless selected; the count shows on hover and is read by screen readers.
 */
export function AlphabeticalNav({ selected, onSelect, counts, groups = LATIN_GROUPS }: AlphabeticalNavProps) {
  const { t } = useTranslation();
  const byLetter = counts ? countByLetter(counts, groups) : undefined;
  const symbols = [ALL, OTHERS, ...groups.map((g) => g.symbol)];
  return (
    <Box
      component="nav"
      aria-label={t('browse.alphabet.label')}
      sx={{
        display: 'flex',
        flexWrap: { xs: 'nowrap', md: 'wrap' },
        overflowX: 'auto',
        scrollbarWidth: 'none',
        justifyContent: { md: 'center' },
        gap: 0.25,
        py: 0.5,
      }}
    >
      {symbols.map((symbol) => {
        const count = byLetter?.[symbol];
        const active = symbol === selected;
        const label =
          symbol === ALL
            ? t('browse.alphabet.all', { count: count ?? 0 })
            : symbol === OTHERS
              ? t('browse.alphabet.others', { count: count ?? 0 })
              : t('browse.alphabet.letter', { letter: symbol, count: count ?? 0 });
        return (
          <Tooltip key={symbol} title={count === undefined ? '' : String(count)} disableInteractive>
            <span>
              <Button
                size="small"
                variant={active ? 'contained' : 'text'}
                color={active ? 'secondary' : 'inherit'}
                aria-label={label}
                aria-current={active ? 'true' : undefined}
                disabled={!active && count === 0}
                onClick={() => onSelect(symbol)}
                sx={{ minWidth: symbol === ALL ? 40 : 28, px: 0.5, flexShrink: 0 }}
              >
                {symbol === ALL ? t('browse.alphabet.allShort') : symbol}
              </Button>
            </span>
          </Tooltip>
        );
      })}
    </Box>
  );
}

/** Prefixes for a symbol's condition: the group's own, or every group's for `#` (to exclude). */
export function letterPrefixes(symbol: string, groups: readonly LetterGroup[] = LATIN_GROUPS): string[] {
  if (symbol === OTHERS) return groups.flatMap((g) => g.prefixes);
  return groups.find((g) => g.symbol === symbol)?.prefixes ?? [];
}
