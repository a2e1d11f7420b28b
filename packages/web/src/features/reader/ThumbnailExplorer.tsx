import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { pageThumbnailUrl } from '../../api/reader';
import { useFullScreenDialog } from '../../components/dialogs';
import { saveThumbnailsPageSize, THUMBNAIL_PAGE_SIZES, useThumbnailsPageSize } from './settings';
import { SettingSelect } from './SettingsSheet';

export interface ThumbnailExplorerProps {
  open: boolean;
  bookId: string;
  pagesCount: number;
  current: number;
  onClose: () => void;
  onPick: (page: number) => void;
}

/** A paged grid of page thumbnails; picking one jumps to it (ui.md §11.5). Opens on the current page's group. */
export function ThumbnailExplorer(props: ThumbnailExplorerProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const size = useThumbnailsPageSize();
  const groups = Math.max(1, Math.ceil(props.pagesCount / size));
  const [group, setGroup] = useState(1);
  const { open, current } = props;
  useEffect(() => {
    if (open) setGroup(Math.floor((current - 1) / size) + 1);
  }, [open, current, size]);
  const first = (group - 1) * size + 1;
  const numbers = Array.from({ length: Math.min(size, props.pagesCount - first + 1) }, (_, i) => first + i);
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="lg"
      slotProps={{ paper: { sx: { maxHeight: fullScreen ? undefined : '90vh' } } }}
      aria-labelledby="thumbnail-explorer-title"
    >
      <DialogTitle id="thumbnail-explorer-title" sx={{ display: 'flex', alignItems: 'center', gap: { xs: 1, sm: 2 } }}>
        <Box component="span" sx={{ flex: 1, minWidth: 0 }}>
          {t('reader.explorerTitle')}
        </Box>
        <Box sx={{ width: { xs: 110, sm: 170 }, flex: 'none' }}>
          <SettingSelect
            label={t('reader.thumbnailsPerPage')}
            value={size}
            options={THUMBNAIL_PAGE_SIZES}
            optionLabel={String}
            onChange={saveThumbnailsPageSize}
          />
        </Box>
        <IconButton onClick={props.onClose} aria-label={t('common.close')}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        {groups > 1 && (
          <Stack sx={{ alignItems: 'center', mb: 2 }}>
            <Pagination count={groups} page={group} onChange={(_, g) => setGroup(g)} size="small" siblingCount={1} />
          </Stack>
        )}
        <Box
          component="ul"
          sx={{
            listStyle: 'none',
            m: 0,
            p: 0,
            display: 'grid',
            gap: 2,
            gridTemplateColumns: 'repeat(auto-fill, minmax(110px, 1fr))',
          }}
        >
          {numbers.map((n) => (
            <li key={n}>
              <ButtonBase
                onClick={() => props.onPick(n)}
                aria-label={t('reader.goToPage', { page: n })}
                aria-current={n === props.current ? 'page' : undefined}
                sx={{
                  display: 'flex',
                  flexDirection: 'column',
                  width: '100%',
                  borderRadius: 1,
                  p: 0.5,
                  outline: n === props.current ? 2 : 0,
                  outlineColor: 'primary.main',
                  outlineStyle: 'solid',
                }}
              >
                <Box
                  component="img"
                  src={pageThumbnailUrl(props.bookId, n)}
                  alt=""
                  loading="lazy"
                  sx={{ width: '100%', aspectRatio: '0.7', objectFit: 'contain', bgcolor: 'action.hover' }}
                />
                <Typography variant="caption" sx={{ mt: 0.5 }}>
                  {n}
                </Typography>
              </ButtonBase>
            </li>
          ))}
        </Box>
      </DialogContent>
    </Dialog>
  );
}
