import { memo, useCallback, useLayoutEffect, useRef, type ReactNode } from 'react';
import Box, { type BoxProps } from '@mui/material/Box';
import { usePreferences, type CardSize } from '../../app/preferences';
import { CardSkeleton, type SelectableCardProps } from './ItemCard';
import {
  SelectionUnderWay,
  type SelectEvent,
  type Selection,
  type SelectionKind,
  type SelectableItems,
} from './selection';

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
  /**
   * One card. Keep it the same function while what it shows is the same (`useCallback`): a cell renders again only
   * when its item, its selection state or this function changes, so toggling one card of a page of 500 renders that
   * card alone.
   */
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
  return (
    <SelectionArea
      selecting={!!selection && selectable && selection.count > 0}
      role="list"
      aria-label={label}
      aria-busy={items ? undefined : true}
      sx={{ display: 'grid', gridTemplateColumns: columns, gap: { xs: 1.5, sm: 2 }, alignItems: 'start' }}
    >
      {items
        ? cells(GridCell, kind, items, renderItem, selectable ? selection : undefined)
        : Array.from({ length: skeletons }, (_, i) => <CardSkeleton key={i} />)}
    </SelectionArea>
  );
}

/**
 * Where cards can be selected (a grid, the rows of a screen): tells its cards whether a selection is under way by
 * its `data-selecting` attribute, which their styles follow, and by `SelectionUnderWay`, which a card reads when
 * clicked, so that a selection starting or ending renders none of them again.
 */
export function SelectionArea({ selecting, children, ...box }: BoxProps & { selecting: boolean }) {
  const now = useRef(selecting);
  useLayoutEffect(() => {
    now.current = selecting;
  }, [selecting]);
  return (
    <SelectionUnderWay.Provider value={now}>
      <Box data-selecting={selecting || undefined} {...box}>
        {children}
      </Box>
    </SelectionUnderWay.Provider>
  );
}

export interface SelectableCellProps<K extends SelectionKind> {
  kind: K;
  item: SelectableItems[K];
  /** The items around it (its grid or row), for a shift-click's range. */
  items: readonly SelectableItems[K][];
  /** Keep it the same function while what it shows is the same (`useCallback`), as `ItemGrid`'s. */
  renderItem: ItemGridProps<K>['renderItem'];
  /** The selection's toggle (stable); undefined when the cards are not selectable. */
  toggle: Selection['toggle'] | undefined;
  selected: boolean;
}

function useCellSelection<K extends SelectionKind>({ kind, item, items, toggle, selected }: SelectableCellProps<K>) {
  const onSelect = useCallback((event: SelectEvent) => toggle?.(kind, item, event, items), [toggle, kind, item, items]);
  return toggle ? { selectable: true, selected, onSelect } : {};
}

/** One card of the grid, rendered again only when one of its props changes (see `renderItem`). */
const GridCell = memo(function GridCell<K extends SelectionKind>(props: SelectableCellProps<K>) {
  return (
    <Box role="listitem" sx={{ minWidth: 0 }}>
      {props.renderItem(props.item, useCellSelection(props))}
    </Box>
  );
}) as <K extends SelectionKind>(props: SelectableCellProps<K>) => ReactNode;

/**
 * One card of a row of cards (`HorizontalScroller` makes its list item), rendered again only when one of its props
 * changes, inside a {@link SelectionArea}.
 */
const SelectableCell = memo(function SelectableCell<K extends SelectionKind>(props: SelectableCellProps<K>) {
  return props.renderItem(props.item, useCellSelection(props));
}) as <K extends SelectionKind>(props: SelectableCellProps<K>) => ReactNode;

/**
 * The first `shown` of `items` (all by default) as `Cell`s, a shift-click's range over all of them; not selectable
 * without a `selection`.
 */
function cells<K extends SelectionKind>(
  Cell: (props: SelectableCellProps<K>) => ReactNode,
  kind: K,
  items: readonly SelectableItems[K][],
  renderItem: SelectableCellProps<K>['renderItem'],
  selection: Selection | undefined,
  shown?: number,
): ReactNode[] {
  return items
    .slice(0, shown)
    .map((item) => (
      <Cell
        key={item.id}
        kind={kind}
        item={item}
        items={items}
        renderItem={renderItem}
        toggle={selection?.toggle}
        selected={!!selection && selection.isSelected(kind, item.id)}
      />
    ));
}

/**
 * The cells of a row of cards (dashboard, search results) inside a {@link SelectionArea}: the first `shown` of
 * `items` (all by default), a shift-click's range over all of them. `selectable` false: the user may not select
 * these items (collections and read lists: admins only).
 */
export function rowCells<K extends SelectionKind>(
  kind: K,
  items: readonly SelectableItems[K][],
  renderItem: SelectableCellProps<K>['renderItem'],
  selection: Selection,
  { shown, selectable = true }: { shown?: number; selectable?: boolean } = {},
): ReactNode[] {
  return cells(SelectableCell, kind, items, renderItem, selectable ? selection : undefined, shown);
}
