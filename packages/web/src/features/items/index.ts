/** Item actions and detail pages (ui.md §2.4, §5-§9, §12.8): what other features import from here. */
export { BookActionsMenu, type BookActionsMenuProps } from './BookActionsMenu';
export { SeriesActionsMenu, seriesIsRead, seriesIsUnread, type SeriesActionsMenuProps } from './SeriesActionsMenu';
export { CollectionActionsMenu, type CollectionActionsMenuProps } from './CollectionActionsMenu';
export { ReadListActionsMenu, type ReadListActionsMenuProps } from './ReadListActionsMenu';
export {
  DeleteBooksDialog,
  DeleteSeriesDialog,
  DeleteCollectionDialog,
  DeleteReadListDialog,
  type DeleteBooksDialogProps,
  type DeleteSeriesDialogProps,
} from './DeleteDialogs';
export { readerPath, usesEpubReader, type ReaderPathOptions } from './readerPath';
export { showItemToast } from './toast';
export { bookCardLine, bookFilterGroups, BOOK_FILTER_KEYS } from './bookFilters';
