import { createContext, useCallback, useMemo, useState } from 'react';
import type { BookDto, CollectionDto, ReadListDto, SeriesDto } from '@quire/api';

/** What a grid can select. One kind at a time: picking an item of another kind starts a new selection. */
export interface SelectableItems {
  book: BookDto;
  series: SeriesDto;
  collection: CollectionDto;
  readlist: ReadListDto;
}
export type SelectionKind = keyof SelectableItems;

/** The modifier keys of the click that toggled an item. */
export interface SelectEvent {
  shiftKey: boolean;
}

/**
 * Whether a selection is under way around a card (`SelectionArea` in ItemGrid.tsx), read when the card is clicked.
 * The area says it with this and with its `data-selecting` attribute, which the cards' styles follow, instead of a
 * prop of every card: the first pick of a page of 500 rendered all of its cards again (368–440 ms from the click to
 * the paint, issue 18).
 */
export const SelectionUnderWay = createContext<{ readonly current: boolean } | null>(null);

interface State {
  kind: SelectionKind | null;
  /** Insertion-ordered: the order the user picked things in. */
  items: Map<string, SelectableItems[SelectionKind]>;
  /** Last plainly clicked item: a shift-click selects from here. */
  anchor: string | null;
  /** Items added by the last shift-click: the next shift-click replaces them rather than adding to them. */
  range: string[];
}

const EMPTY: State = { kind: null, items: new Map(), anchor: null, range: [] };

export interface Selection {
  kind: SelectionKind | null;
  count: number;
  /** The selected items of the current kind, in the order they were picked. */
  items: SelectableItems[SelectionKind][];
  isSelected: (kind: SelectionKind, id: string) => boolean;
  /**
   * Toggles `item`. With shift held, selects every item of `pageItems` between the anchor (the last plain click, or
   * the first item) and `item`, replacing the previous shift range.
   */
  toggle: <K extends SelectionKind>(
    kind: K,
    item: SelectableItems[K],
    event: SelectEvent,
    pageItems: readonly SelectableItems[K][],
  ) => void;
  /** Adds every item given (the "select page" action). */
  selectAll: <K extends SelectionKind>(kind: K, items: readonly SelectableItems[K][]) => void;
  clear: () => void;
}

/** Typed view of a selection known to hold `kind`. */
export function selectedOf<K extends SelectionKind>(selection: Selection, kind: K): SelectableItems[K][] {
  return selection.kind === kind ? (selection.items as SelectableItems[K][]) : [];
}

/**
 * Multi-selection for item grids (ui.md §2.2). `resetKey` identifies what is shown (page, filters, sort): when it
 * changes, the selection empties, since its items may no longer be on screen.
 */
export function useSelection(resetKey?: string): Selection {
  const [state, setState] = useState<State>(EMPTY);
  const [lastKey, setLastKey] = useState(resetKey);
  if (lastKey !== resetKey) {
    setLastKey(resetKey);
    setState(EMPTY);
  }

  const toggle = useCallback<Selection['toggle']>((kind, item, event, pageItems) => {
    setState((prev) => {
      const base = prev.kind === kind ? prev : { ...EMPTY, kind };
      const items = new Map(base.items);
      if (event.shiftKey && pageItems.length > 0) {
        const ids = pageItems.map((i) => i.id);
        const target = ids.indexOf(item.id);
        const anchorIndex = base.anchor ? ids.indexOf(base.anchor) : -1;
        const from = anchorIndex >= 0 ? anchorIndex : 0;
        if (target >= 0) {
          for (const id of base.range) if (id !== base.anchor) items.delete(id);
          const [lo, hi] = from <= target ? [from, target] : [target, from];
          const range = pageItems.slice(lo, hi + 1);
          range.forEach((i) => items.set(i.id, i));
          return { kind, items, anchor: base.anchor ?? ids[0]!, range: range.map((i) => i.id) };
        }
      }
      if (items.has(item.id)) items.delete(item.id);
      else items.set(item.id, item);
      return { kind: items.size ? kind : null, items, anchor: item.id, range: [] };
    });
  }, []);

  const selectAll = useCallback<Selection['selectAll']>((kind, list) => {
    setState((prev) => {
      const items = new Map(prev.kind === kind ? prev.items : undefined);
      list.forEach((i) => items.set(i.id, i));
      return { kind: items.size ? kind : null, items, anchor: prev.kind === kind ? prev.anchor : null, range: [] };
    });
  }, []);

  const clear = useCallback(() => setState(EMPTY), []);

  return useMemo(
    () => ({
      kind: state.kind,
      count: state.items.size,
      items: [...state.items.values()],
      isSelected: (kind: SelectionKind, id: string) => state.kind === kind && state.items.has(id),
      toggle,
      selectAll,
      clear,
    }),
    [state, toggle, selectAll, clear],
  );
}
