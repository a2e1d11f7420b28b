import { useEffect, useState } from 'react';
import AppBar from '@mui/material/AppBar';
import IconButton from '@mui/material/IconButton';
import Slide from '@mui/material/Slide';
import Slider from '@mui/material/Slider';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import FirstPageIcon from '@mui/icons-material/FirstPage';
import LastPageIcon from '@mui/icons-material/LastPage';
import SkipNextIcon from '@mui/icons-material/SkipNext';
import SkipPreviousIcon from '@mui/icons-material/SkipPrevious';
import { ThemeProvider, useTheme, type Theme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';

export interface DivinaBottomBarProps {
  visible: boolean;
  page: number;
  pagesCount: number;
  /** The slider runs the way the pages do: right to left for right-to-left reading. */
  rtl: boolean;
  hasPrevious: boolean;
  hasNext: boolean;
  onPage: (page: number) => void;
  onPreviousBook: () => void;
  onNextBook: () => void;
}

/** Previous book, first page, the page slider, last page, next book (ui.md §11.1). */
export function DivinaBottomBar(props: DivinaBottomBarProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const [dragged, setDragged] = useState<number | null>(null);
  useEffect(() => setDragged(null), [props.page]);
  const shown = dragged ?? props.page;
  // Icons point the way the pages go; they are not mirrored with the interface language.
  const flip = props.rtl ? { transform: 'scaleX(-1)' } : undefined;
  const sliderTheme = (outer: Theme) => ({ ...outer, direction: props.rtl ? ('rtl' as const) : ('ltr' as const) });
  return (
    <Slide appear={false} direction="up" in={props.visible} mountOnEnter unmountOnExit>
      <AppBar
        // A footer: the top bar is the page's one banner (axe: landmark-no-duplicate-banner).
        component="footer"
        position="fixed"
        color="default"
        elevation={2}
        aria-hidden={!props.visible}
        sx={{ top: 'auto', bottom: 0, bgcolor: theme.palette.background.paper }}
      >
        <Toolbar
          variant="dense"
          disableGutters
          sx={{ px: 0.5, gap: { xs: 0, sm: 0.5 } }}
          dir={props.rtl ? 'rtl' : 'ltr'}
        >
          <Tooltip title={t('reader.previousBook')}>
            <span>
              <IconButton
                size="small"
                onClick={props.onPreviousBook}
                disabled={!props.hasPrevious}
                aria-label={t('reader.previousBook')}
              >
                <SkipPreviousIcon sx={flip} />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title={t('reader.firstPage')}>
            <IconButton size="small" onClick={() => props.onPage(1)} aria-label={t('reader.firstPage')}>
              <FirstPageIcon sx={flip} />
            </IconButton>
          </Tooltip>
          <Typography variant="body2" sx={{ minWidth: 32, textAlign: 'center' }} aria-hidden>
            {shown}
          </Typography>
          <ThemeProvider theme={sliderTheme}>
            <Slider
              size="small"
              min={1}
              max={Math.max(1, props.pagesCount)}
              step={1}
              value={shown}
              valueLabelDisplay="auto"
              onChange={(_, value) => setDragged(value as number)}
              onChangeCommitted={(_, value) => props.onPage(value as number)}
              aria-label={t('reader.pageSlider')}
              getAriaValueText={(value) => t('reader.pageOf', { page: value, count: props.pagesCount })}
              sx={{ flex: 1, mx: 1.5, minWidth: 60 }}
            />
          </ThemeProvider>
          <Typography variant="body2" sx={{ minWidth: 32, textAlign: 'center' }} aria-hidden>
            {props.pagesCount}
          </Typography>
          <Tooltip title={t('reader.lastPage')}>
            <IconButton size="small" onClick={() => props.onPage(props.pagesCount)} aria-label={t('reader.lastPage')}>
              <LastPageIcon sx={flip} />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('reader.nextBook')}>
            <span>
              <IconButton
                size="small"
                onClick={props.onNextBook}
                disabled={!props.hasNext}
                aria-label={t('reader.nextBook')}
              >
                <SkipNextIcon sx={flip} />
              </IconButton>
            </span>
          </Tooltip>
        </Toolbar>
      </AppBar>
    </Slide>
  );
}
