import { useId, useState, type ReactNode } from 'react';
import Divider from '@mui/material/Divider';
import IconButton, { type IconButtonProps } from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import MoreVertIcon from '@mui/icons-material/MoreVert';

export interface MenuAction {
  key: string;
  label: string;
  icon: ReactNode;
  /** Runs after the menu closes. */
  onSelect?: () => void;
  /** A download link instead of an action. */
  href?: string;
  /** Destructive: drawn in the error colour. */
  danger?: boolean;
  /** Draws a separator above this item. */
  dividerBefore?: boolean;
  disabled?: boolean;
}

export interface ActionsMenuProps {
  /** Accessible name of the ⋮ button ("Actions for …"). */
  label: string;
  actions: MenuAction[];
  size?: IconButtonProps['size'];
  /** Colour of the ⋮ icon, for use over a poster. */
  color?: IconButtonProps['color'];
  /** Called when the menu opens, to start loading what some items need. */
  onOpen?: () => void;
}

/** A ⋮ button and its menu. Clicks never reach an enclosing card link. Renders nothing without actions. */
export function ActionsMenu({ label, actions, size = 'small', color, onOpen }: ActionsMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  if (!actions.length) return null;
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        size={size}
        color={color}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={(e) => {
          e.preventDefault();
          e.stopPropagation();
          setAnchor(e.currentTarget);
          onOpen?.();
        }}
        onMouseDown={(e) => e.stopPropagation()}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={!!anchor}
        onClose={close}
        // The menu is portalled, but React still bubbles its events through the card that holds the button.
        onClick={(e) => e.stopPropagation()}
      >
        {actions.flatMap((action) => {
          const item = (
            <MenuItem
              key={action.key}
              disabled={action.disabled}
              sx={action.danger ? { color: 'error.main' } : undefined}
              {...(action.href
                ? { component: 'a', href: action.href, download: '', onClick: close }
                : {
                    onClick: () => {
                      close();
                      action.onSelect?.();
                    },
                  })}
            >
              <ListItemIcon sx={action.danger ? { color: 'error.main' } : undefined}>{action.icon}</ListItemIcon>
              <ListItemText>{action.label}</ListItemText>
            </MenuItem>
          );
          return action.dividerBefore ? [<Divider key={`${action.key}-divider`} />, item] : [item];
        })}
      </Menu>
    </>
  );
}
