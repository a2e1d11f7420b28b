import { useId, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import FolderIcon from '@mui/icons-material/Folder';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import DriveFolderUploadIcon from '@mui/icons-material/DriveFolderUpload';
import { useTranslation } from 'react-i18next';
import { useDirectoryListing, type PathDto } from '../../api/libraries';
import { errorText } from '../../i18n/errorMessage';
import { useFullScreenDialog } from '../../components/dialogs';

export interface FolderBrowserDialogProps {
  open: boolean;
  /** Where to start; '' (or a path the server refuses) starts at the file-system roots. */
  initialPath: string;
  /** Defaults to "Library's root folder". */
  title?: string;
  /** Lists the files too, and picks a file instead of a folder (`initialPath` may then be a file). */
  showFiles?: boolean;
  onClose: () => void;
  onSelect: (path: string) => void;
}

/**
 * Browses the server's folders (api.md §9.6): ".." goes up, a folder opens on click (or Enter/Space), and *Choose*
 * picks the folder being shown, or with `showFiles` the file clicked last. Render it only while needed: it starts at
 * `initialPath` when mounted (the server lists the folder of a file path).
 */
export function FolderBrowserDialog({
  open,
  initialPath,
  title,
  showFiles = false,
  onClose,
  onSelect,
}: FolderBrowserDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const titleId = useId();
  const [path, setPath] = useState(initialPath.trim());
  const [file, setFile] = useState(showFiles ? initialPath.trim() : '');
  const listing = useDirectoryListing(path, { enabled: open, showFiles });
  const data = listing.data;
  // At the top (no parent) or under a root (parent ""), ".." goes back to the list of roots.
  const parent = path === '' ? undefined : (data?.parent ?? '');
  // The starting path may be a folder as well as a file: only a file of the listing can be chosen.
  const chosen = showFiles ? (data?.files.find((f) => f.path === file)?.path ?? '') : path;
  const openFolder = (folder: string) => {
    setPath(folder);
    setFile('');
  };

  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title ?? t('libraries.browser.title')}</DialogTitle>
      <DialogContent dividers sx={{ p: 0, minHeight: 320 }}>
        <Typography
          variant="body2"
          dir="ltr"
          aria-live="polite"
          sx={{ px: 2, py: 1, fontFamily: 'monospace', wordBreak: 'break-all', textAlign: 'start' }}
        >
          {chosen || path || t('libraries.browser.roots')}
        </Typography>
        {listing.isError ? (
          <Alert
            severity="error"
            sx={{ m: 2 }}
            action={
              <Button color="inherit" size="small" onClick={() => openFolder('')}>
                {t('libraries.browser.toRoots')}
              </Button>
            }
          >
            {errorText(t, listing.error)}
          </Alert>
        ) : (
          <List
            dense
            aria-label={showFiles ? t('libraries.browser.foldersAndFiles') : t('libraries.browser.folders')}
            aria-busy={listing.isPending}
          >
            {parent !== undefined && (
              <ListItem disablePadding>
                <ListItemButton onClick={() => openFolder(parent)} aria-label={t('libraries.browser.parent')}>
                  <ListItemIcon>
                    <DriveFolderUploadIcon />
                  </ListItemIcon>
                  <ListItemText primary=".." />
                </ListItemButton>
              </ListItem>
            )}
            {listing.isPending
              ? [0, 1, 2, 3].map((i) => (
                  <ListItem key={i} aria-hidden>
                    <ListItemIcon>
                      <FolderIcon color="disabled" />
                    </ListItemIcon>
                    <ListItemText primary={<Skeleton width={`${60 - i * 10}%`} />} />
                  </ListItem>
                ))
              : data?.directories.map((dir) => (
                  <Entry
                    key={dir.path}
                    entry={dir}
                    icon={<FolderIcon color="primary" />}
                    onClick={() => openFolder(dir.path)}
                  />
                ))}
            {!listing.isPending &&
              data?.files.map((f) => (
                <Entry
                  key={f.path}
                  entry={f}
                  icon={<InsertDriveFileOutlinedIcon />}
                  selected={f.path === file}
                  onClick={() => setFile(f.path)}
                />
              ))}
            {data && data.directories.length === 0 && data.files.length === 0 && (
              <ListItem>
                <ListItemText
                  secondary={showFiles ? t('libraries.browser.emptyFolder') : t('libraries.browser.empty')}
                />
              </ListItem>
            )}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" disabled={!chosen || listing.isError} onClick={() => onSelect(chosen)}>
          {t('libraries.browser.choose')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A folder or a file of the listing; a chosen file is marked as the current one. */
function Entry({
  entry,
  icon,
  selected = false,
  onClick,
}: {
  entry: PathDto;
  icon: ReactNode;
  selected?: boolean;
  onClick: () => void;
}) {
  return (
    <ListItem disablePadding>
      <ListItemButton selected={selected} aria-current={selected || undefined} onClick={onClick}>
        <ListItemIcon>{icon}</ListItemIcon>
        <ListItemText primary={entry.name} slotProps={{ primary: { dir: 'auto', sx: { wordBreak: 'break-all' } } }} />
      </ListItemButton>
    </ListItem>
  );
}
