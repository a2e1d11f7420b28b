import type { ReactNode } from 'react';
import AppBar from '@mui/material/AppBar';
import IconButton from '@mui/material/IconButton';
import Slide from '@mui/material/Slide';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { Fullscreen } from './useFullscreen';

export interface ReaderTopBarProps {
  visible: boolean;
  title: string;
  incognito: boolean;
  fullscreen: Fullscreen;
  onClose: () => void;
  onHelp: () => void;
  /** Reader-specific buttons before help (thumbnails, table of contents…). */
  children?: ReactNode;
  /** After help: settings, the ⋮ menu. */
  end?: ReactNode;
}

/** The top toolbar of both readers: close, title, incognito mark, full screen, help and the reader's own buttons. */
export function ReaderTopBar(props: ReaderTopBarProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const { fullscreen } = props;
  return (
    <Slide appear={false} direction="down" in={props.visible} mountOnEnter unmountOnExit>
      <AppBar
        position="fixed"
        color="default"
        elevation={2}
        aria-hidden={!props.visible}
        sx={{ bgcolor: theme.palette.background.paper }}
      >
        <Toolbar variant="dense" disableGutters sx={{ px: 0.5, gap: 0.5 }}>
          <Tooltip title={t('reader.closeBook')}>
            <IconButton onClick={props.onClose} aria-label={t('reader.closeBook')}>
              <ArrowBackIcon sx={{ transform: theme.direction === 'rtl' ? 'scaleX(-1)' : undefined }} />
            </IconButton>
          </Tooltip>
          <Typography component="h1" variant="subtitle1" noWrap sx={{ flex: 1, minWidth: 0 }} title={props.title}>
            {props.title}
          </Typography>
          {props.incognito && (
            <Tooltip title={t('reader.incognito')}>
              <VisibilityOffIcon role="img" aria-label={t('reader.incognito')} sx={{ mx: 1 }} />
            </Tooltip>
          )}
          <Tooltip title={fullscreen.active ? t('reader.exitFullscreen') : t('reader.fullscreen')}>
            <span>
              <IconButton
                onClick={fullscreen.toggle}
                disabled={!fullscreen.supported}
                aria-label={fullscreen.active ? t('reader.exitFullscreen') : t('reader.fullscreen')}
              >
                {fullscreen.active ? <FullscreenExitIcon /> : <FullscreenIcon />}
              </IconButton>
            </span>
          </Tooltip>
          {props.children}
          <Tooltip title={t('reader.shortcuts')}>
            <IconButton onClick={props.onHelp} aria-label={t('reader.shortcuts')}>
              <HelpOutlineIcon />
            </IconButton>
          </Tooltip>
          {props.end}
        </Toolbar>
      </AppBar>
    </Slide>
  );
}
