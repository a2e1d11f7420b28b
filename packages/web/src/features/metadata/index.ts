/** The edit, add-to and poster dialogs (ui.md §12), as the other features open them. */
export { EditBooksDialog, type EditBooksDialogProps } from './EditBooksDialog';
export { EditSeriesDialog, type EditSeriesDialogProps } from './EditSeriesDialog';
export { EditOneshotDialog, type EditOneshotDialogProps } from './EditOneshotDialog';
export {
  AddToCollectionDialog,
  AddToReadListDialog,
  EditCollectionDialog,
  EditReadListDialog,
  type AddToCollectionDialogProps,
  type AddToReadListDialogProps,
  type EditCollectionDialogProps,
  type EditReadListDialogProps,
} from './GroupDialogs';
