import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IconButtonProps } from '@mui/material/IconButton';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import type { ReadListDto } from '@quire/api';
import { readListCblUrl, readListFileUrl } from '../../api/actions';
import { ActionsMenu, type MenuAction } from './ActionsMenu';
import { DeleteReadListDialog } from './DeleteDialogs';
import { EditReadListDialog } from './dialogs';
import { useRoles } from './roles';

export interface ReadListActionsMenuProps {
  readList: ReadListDto;
  /** After the read list was deleted (the detail page leaves). */
  onDeleted?: () => void;
  size?: IconButtonProps['size'];
  color?: IconButtonProps['color'];
}

/**
 * The ⋮ menu of a read list: download its books (FILE_DOWNLOAD) and export it as a ComicRack list for everyone;
 * edit and delete for admins.
 */
export function ReadListActionsMenu({ readList, onDeleted, size, color }: ReadListActionsMenuProps) {
  const { t } = useTranslation();
  const roles = useRoles();
  const [dialog, setDialog] = useState<{ kind: 'edit' | 'delete'; open: boolean } | null>(null);
  const close = () => setDialog((d) => d && { ...d, open: false });
  const empty = readList.bookIds.length === 0;

  const actions: MenuAction[] = [];
  if (roles.download && !empty)
    actions.push({
      key: 'download',
      label: t('items.actions.download'),
      icon: <DownloadIcon />,
      href: readListFileUrl(readList.id),
    });
  if (!empty)
    actions.push({
      key: 'cbl',
      label: t('items.actions.exportCbl'),
      icon: <FileDownloadIcon />,
      href: readListCblUrl(readList.id),
    });
  if (roles.admin)
    actions.push(
      {
        key: 'edit',
        label: t('items.actions.edit'),
        icon: <EditIcon />,
        dividerBefore: actions.length > 0,
        onSelect: () => setDialog({ kind: 'edit', open: true }),
      },
      {
        key: 'delete',
        label: t('items.actions.delete'),
        icon: <DeleteIcon />,
        danger: true,
        dividerBefore: true,
        onSelect: () => setDialog({ kind: 'delete', open: true }),
      },
    );
  if (!actions.length) return null;
  return (
    <>
      <ActionsMenu
        label={t('items.actions.menu', { title: readList.name })}
        actions={actions}
        size={size}
        color={color}
      />
      {dialog?.kind === 'edit' && <EditReadListDialog open={dialog.open} readList={readList} onClose={close} />}
      {dialog?.kind === 'delete' && (
        <DeleteReadListDialog open={dialog.open} readList={readList} onClose={close} onDeleted={onDeleted} />
      )}
    </>
  );
}
