import DialogContentText from '@mui/material/DialogContentText';
import { Trans, useTranslation } from 'react-i18next';
import { useDeleteLibrary, type LibraryDto } from '../../api/libraries';
import { errorText } from '../../i18n/errorMessage';
import { ConfirmDialog } from '../../components/dialogs';

export interface DeleteLibraryDialogProps {
  open: boolean;
  library: LibraryDto;
  onClose: () => void;
  onDeleted: () => void;
}

/**
 * ui.md §12.8: the library leaves the server's database (series, books, read progress); the media files stay on
 * disk. The red button waits for the acknowledging checkbox.
 */
export function DeleteLibraryDialog({ open, library, onClose, onDeleted }: DeleteLibraryDialogProps) {
  const { t } = useTranslation();
  const remove = useDeleteLibrary();
  return (
    <ConfirmDialog
      open={open}
      title={t('libraries.delete.title')}
      acknowledge={t('libraries.delete.acknowledge', { name: library.name })}
      confirmLabel={t('libraries.delete.button')}
      pending={remove.isPending}
      error={remove.isError ? errorText(t, remove.error) : null}
      onConfirm={() => remove.mutate(library.id, { onSuccess: onDeleted })}
      onClose={() => {
        remove.reset();
        onClose();
      }}
    >
      <DialogContentText component="div">
        <Trans i18nKey="libraries.delete.message" values={{ name: library.name }} components={{ strong: <strong /> }} />
      </DialogContentText>
    </ConfirmDialog>
  );
}
