import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { currentEntry, type TocEntry } from './publication';

export type TocKind = 'toc' | 'landmarks' | 'pageList';

export interface TocDrawerProps {
  open: boolean;
  onClose: () => void;
  lists: Partial<Record<TocKind, TocEntry[]>>;
  readingOrder: readonly string[];
  currentHref: string | undefined;
  onPick: (href: string) => void;
}

/** Contents, landmarks and page list of the book, each in a tab when the book has it (ui.md §11.7). */
export function TocDrawer(props: TocDrawerProps) {
  const { t } = useTranslation();
  const kinds = (['toc', 'landmarks', 'pageList'] as const).filter((k) => props.lists[k]?.length);
  const [tab, setTab] = useState<TocKind>('toc');
  const shown = kinds.includes(tab) ? tab : kinds[0];
  const entries = shown ? (props.lists[shown] ?? []) : [];
  const current = props.currentHref ? currentEntry(entries, props.readingOrder, props.currentHref) : -1;
  const labels = {
    toc: t('reader.epub.contents'),
    landmarks: t('reader.epub.landmarks'),
    pageList: t('reader.epub.pageList'),
  };

  // The current entry in view when the drawer opens.
  useEffect(() => {
    if (!props.open || current < 0) return;
    const frame = requestAnimationFrame(() =>
      document.getElementById(`toc-entry-${current}`)?.scrollIntoView({ block: 'center' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [props.open, current]);

  return (
    <Drawer
      anchor="left"
      open={props.open}
      onClose={props.onClose}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-label': t('reader.epub.contents'),
          sx: { width: { xs: 'calc(100% - 50px)', sm: 500 } },
        },
      }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', px: 2, pt: 1 }}>
        <Typography component="h2" variant="h6" sx={{ flex: 1 }}>
          {t('reader.epub.contents')}
        </Typography>
        <IconButton onClick={props.onClose} aria-label={t('common.close')}>
          <CloseIcon />
        </IconButton>
      </Stack>
      {kinds.length > 1 && (
        <Tabs value={shown} onChange={(_, v: TocKind) => setTab(v)} variant="fullWidth">
          {kinds.map((k) => (
            <Tab key={k} value={k} label={labels[k]} />
          ))}
        </Tabs>
      )}
      <Box sx={{ overflowY: 'auto', flex: 1 }}>
        <List dense>
          {entries.map((e, i) => (
            <ListItemButton
              key={`${e.href}-${i}`}
              id={`toc-entry-${i}`}
              selected={i === current}
              aria-current={i === current ? 'location' : undefined}
              onClick={() => props.onPick(e.href)}
              sx={{ paddingInlineStart: 2 + e.level * 2 }}
            >
              <ListItemText primary={e.title} />
            </ListItemButton>
          ))}
        </List>
      </Box>
    </Drawer>
  );
}
