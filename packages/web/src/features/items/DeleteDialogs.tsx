import DialogContentText from '@mui/material/DialogContentText';
import { Trans, useTranslation } from 'react-i18next';
import type { BookDto, CollectionDto, ReadListDto, SeriesDto } from '@quire/api';
import { useDeleteBooks, useDeleteCollection, useDeleteReadList, useDeleteSeries } from '../../api/actions';
import { ConfirmDialog } from '../../components/dialogs';
import { useActionErrorText } from './errors';
import { showItemToast } from './toast';

interface DeleteDialogProps<T> {
  open: boolean;
  onClose: () => void;
  /** After a successful deletion (the dialog has closed): a detail page leaves for the parent. */
  onDeleted?: (deleted: T) => void;
}

export interface DeleteBooksDialogProps extends DeleteDialogProps<BookDto[]> {
  books: BookDto[];
}

/**
 * ui.md §12.8: the books leave the server and their files are deleted from disk. The red button waits for the
 * acknowledging checkbox. Books are deleted one by one; if some fail, the dialog stays open saying how many.
 */
export function DeleteBooksDialog({ open, books, onClose, onDeleted }: DeleteBooksDialogProps) {
  const { t } = useTranslation();
  const errorText = useActionErrorText();
  const remove = useDeleteBooks();
  const single = books.length === 1 ? books[0]!.metadata.title : null;
  return (
    <ConfirmDialog
      open={open}
      title={t('items.delete.booksTitle', { count: books.length })}
      acknowledge={
        single !== null
          ? t('items.delete.bookAcknowledge', { name: single })
          : t('items.delete.booksAcknowledge', { count: books.length })
      }
      confirmLabel={t('items.delete.button')}
      pending={remove.isPending}
      error={remove.isError ? errorText(remove.error) : null}
      onConfirm={() =>
        remove.mutate(
          { bookIds: books.map((b) => b.id) },
          {
            onSuccess: () => {
              showItemToast(
                single !== null
                  ? t('items.toast.bookDeleted', { name: single })
                  : t('items.toast.booksDeleted', { count: books.length }),
              );
              onClose();
              onDeleted?.(books);
            },
          },
        )
      }
      onClose={() => {
        remove.reset();
        onClose();
      }}
    >
      <DialogContentText component="div">
        {single !== null ? (
          <Trans i18nKey="items.delete.bookMessage" values={{ name: single }} components={{ strong: <strong /> }} />
        ) : (
          <Trans
            i18nKey="items.delete.booksMessage"
            count={books.length}
            values={{ count: books.length }}
            components={{ strong: <strong /> }}
          />
        )}
      </DialogContentText>
    </ConfirmDialog>
  );
}

export interface DeleteSeriesDialogProps extends DeleteDialogProps<SeriesDto[]> {
  series: SeriesDto[];
}

/** ui.md §12.8: the series, their books and their files are deleted; the same confirmation as for books. */
export function DeleteSeriesDialog({ open, series, onClose, onDeleted }: DeleteSeriesDialogProps) {
  const { t } = useTranslation();
  const errorText = useActionErrorText();
  const remove = useDeleteSeries();
  const single = series.length === 1 ? series[0]!.metadata.title : null;
  return (
    <ConfirmDialog
      open={open}
      title={t('items.delete.seriesTitle', { count: series.length })}
      acknowledge={
        single !== null
          ? t('items.delete.oneSeriesAcknowledge', { name: single })
          : t('items.delete.seriesAcknowledge', { count: series.length })
      }
      confirmLabel={t('items.delete.button')}
      pending={remove.isPending}
      error={remove.isError ? errorText(remove.error) : null}
      onConfirm={() =>
        remove.mutate(
          { seriesIds: series.map((s) => s.id) },
          {
            onSuccess: () => {
              showItemToast(
                single !== null
                  ? t('items.toast.oneSeriesDeleted', { name: single })
                  : t('items.toast.seriesDeleted', { count: series.length }),
              );
              onClose();
              onDeleted?.(series);
            },
          },
        )
      }
      onClose={() => {
        remove.reset();
        onClose();
      }}
    >
      <DialogContentText component="div">
        {single !== null ? (
          <Trans
            i18nKey="items.delete.oneSeriesMessage"
            values={{ name: single }}
            components={{ strong: <strong /> }}
          />
        ) : (
          <Trans
            i18nKey="items.delete.seriesMessage"
            count={series.length}
            values={{ count: series.length }}
            components={{ strong: <strong /> }}
          />
        )}
      </DialogContentText>
    </ConfirmDialog>
  );
}

export interface DeleteCollectionDialogProps extends DeleteDialogProps<CollectionDto> {
  collection: CollectionDto;
}

/** The collection goes; its series and their files stay. */
export function DeleteCollectionDialog({ open, collection, onClose, onDeleted }: DeleteCollectionDialogProps) {
  const { t } = useTranslation();
  const errorText = useActionErrorText();
  const remove = useDeleteCollection();
  return (
    <ConfirmDialog
      open={open}
      title={t('items.delete.collectionTitle')}
      acknowledge={t('items.delete.collectionAcknowledge', { name: collection.name })}
      confirmLabel={t('items.delete.button')}
      pending={remove.isPending}
      error={remove.isError ? errorText(remove.error) : null}
      onConfirm={() =>
        remove.mutate(collection.id, {
          onSuccess: () => {
            showItemToast(t('items.toast.collectionDeleted', { name: collection.name }));
            onClose();
            onDeleted?.(collection);
          },
        })
      }
      onClose={() => {
        remove.reset();
        onClose();
      }}
    >
      <DialogContentText component="div">
        <Trans
          i18nKey="items.delete.collectionMessage"
          values={{ name: collection.name }}
          components={{ strong: <strong /> }}
        />
      </DialogContentText>
    </ConfirmDialog>
  );
}

export interface DeleteReadListDialogProps extends DeleteDialogProps<ReadListDto> {
  readList: ReadListDto;
}

/** The read list goes; its books and their files stay. */
export function DeleteReadListDialog({ open, readList, onClose, onDeleted }: DeleteReadListDialogProps) {
  const { t } = useTranslation();
  const errorText = useActionErrorText();
  const remove = useDeleteReadList();
  return (
    <ConfirmDialog
      open={open}
      title={t('items.delete.readListTitle')}
      acknowledge={t('items.delete.readListAcknowledge', { name: readList.name })}
      confirmLabel={t('items.delete.button')}
      pending={remove.isPending}
      error={remove.isError ? errorText(remove.error) : null}
      onConfirm={() =>
        remove.mutate(readList.id, {
          onSuccess: () => {
            showItemToast(t('items.toast.readListDeleted', { name: readList.name }));
            onClose();
            onDeleted?.(readList);
          },
        })
      }
      onClose={() => {
        remove.reset();
        onClose();
      }}
    >
      <DialogContentText component="div">
        <Trans
          i18nKey="items.delete.readListMessage"
          values={{ name: readList.name }}
          components={{ strong: <strong /> }}
        />
      </DialogContentText>
    </ConfirmDialog>
  );
}
