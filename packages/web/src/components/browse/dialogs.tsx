import {
  lazy,
  Suspense,
  useCallback,
  useMemo,
  useState,
  type ComponentProps,
  type ComponentType,
  type ReactNode,
} from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BookDto, CollectionDto, ReadListDto, SeriesDto } from '@quire/api';
import type * as Metadata from '../../features/metadata';
import { fetchBookList } from '../../api/books';
import { seriesQueries } from '../../api/series';
import { showItemToast } from '../../features/items';
import { useErrorText } from '../dialogs';

type DialogName =
  | 'EditBooksDialog'
  | 'EditSeriesDialog'
  | 'EditOneshotDialog'
  | 'AddToCollectionDialog'
  | 'AddToReadListDialog'
  | 'EditCollectionDialog'
  | 'EditReadListDialog';

/** An edit dialog of features/metadata, loaded on first use so the editors stay out of the browse bundle. */
function lazyDialog<K extends DialogName>(name: K) {
  type Props = ComponentProps<(typeof Metadata)[K]>;
  // Props are checked where LazyDialog is used; the loaded component takes them as they come.
  const Lazy = lazy(async () => ({
    default: (await import('../../features/metadata'))[name] as ComponentType<object>,
  }));
  return function LazyDialog(props: Props) {
    return (
      <Suspense fallback={null}>
        <Lazy {...(props as object)} />
      </Suspense>
    );
  };
}

export const EditBooksDialog = lazyDialog('EditBooksDialog');
export const EditSeriesDialog = lazyDialog('EditSeriesDialog');
export const EditOneshotDialog = lazyDialog('EditOneshotDialog');
export const AddToCollectionDialog = lazyDialog('AddToCollectionDialog');
export const AddToReadListDialog = lazyDialog('AddToReadListDialog');
export const EditCollectionDialog = lazyDialog('EditCollectionDialog');
export const EditReadListDialog = lazyDialog('EditReadListDialog');

type Open =
  | { kind: 'books'; books: BookDto[] }
  | { kind: 'series'; series: SeriesDto[] }
  | { kind: 'oneshot'; series: SeriesDto; book: BookDto }
  | { kind: 'collection'; collection: CollectionDto }
  | { kind: 'readlist'; readList: ReadListDto }
  | { kind: 'addToCollection'; seriesIds: string[] }
  | { kind: 'addToReadList'; bookIds: string[] };

export interface ItemDialogs {
  /** One book, several, or a one-shot book (its one-shot editor). */
  editBooks: (books: BookDto[]) => void;
  /** Series; a single one-shot opens the one-shot editor. */
  editSeries: (series: SeriesDto[]) => void;
  editCollection: (collection: CollectionDto) => void;
  editReadList: (readList: ReadListDto) => void;
  addToCollection: (seriesIds: string[]) => void;
  addToReadList: (bookIds: string[]) => void;
  /** Every book of the series, in reading order, then the add-to-read-list dialog. */
  addSeriesToReadList: (seriesIds: string[]) => void;
  /** Render once: the open dialog. */
  element: ReactNode;
}

/**
 * The edit and add-to dialogs a browse screen opens from its cards' pencils and its selection bar, one at a time.
 * The dialog stays mounted while it closes, so its exit transition plays. The same object from render to render
 * while no dialog opens or closes, so that cards rendered with its actions need not render again (`ItemGrid`).
 */
export function useItemDialogs(): ItemDialogs {
  const qc = useQueryClient();
  const errorText = useErrorText();
  const [open, setOpen] = useState<{ dialog: Open; visible: boolean } | null>(null);
  const onClose = useCallback(() => setOpen((o) => (o ? { ...o, visible: false } : o)), []);

  const actions = useMemo((): Omit<ItemDialogs, 'element'> => {
    const show = (dialog: Open) => setOpen({ dialog, visible: true });
    const fail = (e: unknown) => showItemToast(errorText(e), 'error');
    const oneshotOfSeries = async (series: SeriesDto) => {
      const page = await fetchBookList({ condition: { seriesId: { operator: 'is', value: series.id } }, size: 1 });
      const book = page.content[0];
      if (book) show({ kind: 'oneshot', series, book });
      else show({ kind: 'series', series: [series] });
    };
    return {
      editBooks: (books) => {
        const only = books.length === 1 ? books[0]! : null;
        if (only?.oneshot) {
          qc.fetchQuery(seriesQueries.detail(only.seriesId))
            .then((series) => show({ kind: 'oneshot', series, book: only }))
            .catch(fail);
        } else show({ kind: 'books', books });
      },
      editSeries: (series) => {
        const only = series.length === 1 ? series[0]! : null;
        if (only?.oneshot) oneshotOfSeries(only).catch(fail);
        else show({ kind: 'series', series });
      },
      editCollection: (collection) => show({ kind: 'collection', collection }),
      editReadList: (readList) => show({ kind: 'readlist', readList }),
      addToCollection: (seriesIds) => show({ kind: 'addToCollection', seriesIds }),
      addToReadList: (bookIds) => show({ kind: 'addToReadList', bookIds }),
      addSeriesToReadList: (seriesIds) => {
        fetchBookList({
          condition: { anyOf: seriesIds.map((value) => ({ seriesId: { operator: 'is', value } })) },
          unpaged: true,
          sort: ['series,asc', 'metadata.numberSort,asc'],
        })
          .then((page) => show({ kind: 'addToReadList', bookIds: page.content.map((b) => b.id) }))
          .catch(fail);
      },
    };
  }, [qc, errorText]);

  return useMemo(
    () => ({ ...actions, element: open && dialogElement(open.dialog, open.visible, onClose) }),
    [actions, open, onClose],
  );
}

function dialogElement(dialog: Open, visible: boolean, onClose: () => void): ReactNode {
  const common = { open: visible, onClose };
  switch (dialog.kind) {
    case 'books':
      return <EditBooksDialog {...common} books={dialog.books} />;
    case 'series':
      return <EditSeriesDialog {...common} series={dialog.series} />;
    case 'oneshot':
      return <EditOneshotDialog {...common} series={dialog.series} book={dialog.book} />;
    case 'collection':
      return <EditCollectionDialog {...common} collection={dialog.collection} />;
    case 'readlist':
      return <EditReadListDialog {...common} readList={dialog.readList} />;
    case 'addToCollection':
      return <AddToCollectionDialog {...common} seriesIds={dialog.seriesIds} />;
    case 'addToReadList':
      return <AddToReadListDialog {...common} bookIds={dialog.bookIds} />;
  }
}
