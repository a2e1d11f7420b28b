import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IconButtonProps } from '@mui/material/IconButton';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import type { CollectionDto } from '@quire/api';
import { ActionsMenu, type MenuAction } from './ActionsMenu';
import { DeleteCollectionDialog } from './DeleteDialogs';
import { EditCollectionDialog } from './dialogs';
import { useRoles } from './roles';

export interface CollectionActionsMenuProps {
  collection: CollectionDto;
  /** After the collection was deleted (the detail page leaves). */
  onDeleted?: () => void;
  size?: IconButtonProps['size'];
  color?: IconButtonProps['color'];
}

/** The ⋮ menu of a collection (ui.md §2.4): edit and delete, for admins only (nothing for others). */
export function CollectionActionsMenu({ collection, onDeleted, size, color }: CollectionActionsMenuProps) {
  const { t } = useTranslation();
  const { admin } = useRoles();
  const [dialog, setDialog] = useState<{ kind: 'edit' | 'delete'; open: boolean } | null>(null);
  const close = () => setDialog((d) => d && { ...d, open: false });
  const actions: MenuAction[] = admin
    ? [
        {
          key: 'edit',
          label: t('items.actions.edit'),
          icon: <EditIcon />,
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
      ]
    : [];
  if (!actions.length) return null;
  return (
    <>
      <ActionsMenu
        label={t('items.actions.menu', { title: collection.name })}
        actions={actions}
        size={size}
        color={color}
      />
      {dialog?.kind === 'edit' && <EditCollectionDialog open={dialog.open} collection={collection} onClose={close} />}
      {dialog?.kind === 'delete' && (
        <DeleteCollectionDialog open={dialog.open} collection={collection} onClose={close} onDeleted={onDeleted} />
      )}
    </>
  );
}
