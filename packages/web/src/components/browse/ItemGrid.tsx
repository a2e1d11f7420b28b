import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import { usePreferences, type CardSize } from '../../app/preferences';
import { CardSkeleton, type SelectableCardProps } from './ItemCard';
import type { Selection, SelectionKind, SelectableItems } from './selection';

/** Card width in pixels per card-size preference. */
export const CARD_WIDTHS: Record<CardSize, number> = { small: 120, medium: 150, large: 200 };

/** Grid columns: fixed-width cards that share the row's slack; two (three for small cards) on phones. */
export function useGridColumns() {
  const size = usePreferences((p) => p.cardSize);
  return {
    xs: `repeat(${size === 'small' ? 3 : 2}, minmax(0, 1fr))`,
    sm: `repeat(auto-fill, minmax(${CARD_WIDTHS[size] ?? CARD_WIDTHS.medium}px, 1fr))`,
  };
}

export interface ItemGridProps<K extends SelectionKind> {
  kind: K;
  /** Undefined while loading: skeleton cards show instead. */
  items: readonly SelectableItems[K][] | undefined;
  renderItem: (item: SelectableItems[K], selection: SelectableCardProps) => ReactNode;
  /** Makes the cards selectable (shift-click selects a range of this grid's items). */
  selection?: Selection;
  /** Whether this user may select these items at all (collections and read lists: admins only). */
  selectable?: boolean;
  /** Skeleton count while loading. */
  skeletons?: number;
  /** Accessible name of the list. */
  label?: string;
}

/** The wrapping grid of cards of browse screens (ui.md §2.2), with selection. */
export function ItemGrid<K extends SelectionKind>({
  kind,
  items,
  renderItem,
  selection,
  selectable = true,
  skeletons = 20,
  label,
}: ItemGridProps<K>) {
  const columns = useGridColumns();
  const canSelect = !!selection && selectable;
  const preselect = !!selection && selection.count > 0;
  return (
    <Box
      role="list"
      aria-label={label}
      aria-busy={items ? undefined : true}
      sx={{ display: 'grid', gridTemplateColumns: columns, gap: { xs: 1.5, sm: 2 }, alignItems: 'start' }}
    >
      {items
        ? items.map((item) => (
            <Box role="listitem" key={item.id} sx={{ minWidth: 0 }}>
              {renderItem(
                item,
                canSelect
                  ? {
                      selectable: true,
                      selected: selection.isSelected(kind, item.id),
                      preselect,
                      onSelect: (event) => selection.toggle(kind, item, event, items),
                    }
                  : {},
              )}
            </Box>
          ))
        : Array.from({ length: skeletons }, (_, i) => <CardSkeleton key={i} />)}
    </Box>
  );
}
