import { useId, useState } from 'react';
import Divider from '@mui/material/Divider';
import IconButton, { type IconButtonProps } from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import AnalyticsIcon from '@mui/icons-material/Analytics';
import DeleteIcon from '@mui/icons-material/Delete';
import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import EditIcon from '@mui/icons-material/Edit';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import RefreshIcon from '@mui/icons-material/Refresh';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import { useIsAdmin } from '../../api/auth';
import type { LibraryDto } from '../../api/libraries';
import { useLibraryActions } from './LibraryDialogs';

export interface LibraryActionsMenuProps {
  library: LibraryDto;
  /** Size and edge of the ⋮ button, to fit a drawer row or a toolbar. */
  size?: IconButtonProps['size'];
  edge?: IconButtonProps['edge'];
}

/**
 * The per-library ⋮ menu (ui.md §1.4), for admins only (renders nothing otherwise). Analyze, refresh, empty trash
 * and delete ask first; each queued action is confirmed by a toast.
 */
export function LibraryActionsMenu({ library, size = 'small', edge }: LibraryActionsMenuProps) {
  const { t } = useTranslation();
  const admin = useIsAdmin();
  const actions = useLibraryActions();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  if (!admin) return null;

  const run = (action: () => void) => () => {
    setAnchor(null);
    action();
  };
  const items = [
    { key: 'scan', icon: <SearchIcon />, label: t('libraries.menu.scan'), onClick: () => actions.scan(library, false) },
    {
      key: 'deepScan',
      icon: <ManageSearchIcon color="warning" />,
      label: t('libraries.menu.deepScan'),
      onClick: () => actions.scan(library, true),
      color: 'warning.main',
    },
    {
      key: 'analyze',
      icon: <AnalyticsIcon />,
      label: t('libraries.menu.analyze'),
      onClick: () => actions.confirm('analyze', library),
    },
    {
      key: 'refresh',
      icon: <RefreshIcon />,
      label: t('libraries.menu.refresh'),
      onClick: () => actions.confirm('refresh', library),
    },
    {
      key: 'emptyTrash',
      icon: <DeleteSweepIcon />,
      label: t('libraries.menu.emptyTrash'),
      onClick: () => actions.confirm('emptyTrash', library),
    },
  ];

  return (
    <>
      <IconButton
        size={size}
        edge={edge}
        aria-label={t('libraries.menu.button', { name: library.name })}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={(e) => {
          e.preventDefault();
          e.stopPropagation();
          setAnchor(e.currentTarget);
        }}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {items.map((item) => (
          <MenuItem key={item.key} onClick={run(item.onClick)} sx={item.color ? { color: item.color } : undefined}>
            <ListItemIcon>{item.icon}</ListItemIcon>
            <ListItemText>{item.label}</ListItemText>
          </MenuItem>
        ))}
        <Divider />
        <MenuItem onClick={run(() => actions.edit(library))}>
          <ListItemIcon>
            <EditIcon />
          </ListItemIcon>
          <ListItemText>{t('libraries.menu.edit')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={run(() => actions.remove(library))} sx={{ color: 'error.main' }}>
          <ListItemIcon>
            <DeleteIcon color="error" />
          </ListItemIcon>
          <ListItemText>{t('libraries.menu.delete')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
