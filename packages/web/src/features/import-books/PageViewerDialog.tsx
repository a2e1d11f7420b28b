import { useId, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import FirstPageIcon from '@mui/icons-material/FirstPage';
import LastPageIcon from '@mui/icons-material/LastPage';
import NavigateBeforeIcon from '@mui/icons-material/NavigateBefore';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import { useTranslation } from 'react-i18next';
import { useFullScreenDialog } from '../../components/dialogs';

/** One book shown in the viewer: its label, page count and where page n (1-based) comes from. */
export interface ViewedBook {
  label: string;
  pageCount: number;
  pageUrl: (n: number) => string;
}

type Move = 'first' | 'previous' | 'next' | 'last';

const moved = (page: number, count: number, move: Move) =>
  ({ first: 1, previous: Math.max(1, page - 1), next: Math.min(count, page + 1), last: count })[move];

/** ⏮ ‹ › ⏭, drawn mirrored in right-to-left layouts where "previous" points right. */
function PageControls({
  label,
  page,
  count,
  atStart = page <= 1,
  atEnd = page >= count,
  onMove,
}: {
  label: string;
  page: number;
  count: number;
  atStart?: boolean;
  atEnd?: boolean;
  onMove: (move: Move) => void;
}) {
  const { t } = useTranslation();
  const rtl = useTheme().direction === 'rtl';
  const flip = rtl ? { transform: 'scaleX(-1)' } : undefined;
  const button = (move: Move, icon: ReactNode, disabled: boolean) => (
    <IconButton
      aria-label={t(`importBooks.viewer.${move}`, { book: label })}
      disabled={disabled}
      onClick={() => onMove(move)}
      size="small"
    >
      <Box component="span" sx={{ display: 'flex', ...flip }}>
        {icon}
      </Box>
    </IconButton>
  );
  return (
    <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'center' }}>
      {button('first', <FirstPageIcon />, atStart)}
      {button('previous', <NavigateBeforeIcon />, atStart)}
      <Typography variant="body2" sx={{ mx: 1 }} aria-live="polite">
        {t('importBooks.viewer.pageOf', { page, count })}
      </Typography>
      {button('next', <NavigateNextIcon />, atEnd)}
      {button('last', <LastPageIcon />, atEnd)}
    </Stack>
  );
}

/**
 * One book's pages, or two books side by side (the scanned file and the one it would replace), each turned on its
 * own or both together (ui.md §13.8).
 */
export function PageViewerDialog({
  open,
  books,
  onClose,
}: {
  open: boolean;
  books: ViewedBook[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const titleId = useId();
  const [pages, setPages] = useState(() => books.map(() => 1));
  const moveOne = (index: number, move: Move) =>
    setPages((current) => current.map((p, i) => (i === index ? moved(p, books[i]!.pageCount, move) : p)));
  const moveAll = (move: Move) => setPages((current) => current.map((p, i) => moved(p, books[i]!.pageCount, move)));
  const maxCount = Math.max(...books.map((b) => b.pageCount));
  const both = books.length > 1;

  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="lg" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        {both ? t('importBooks.viewer.compareTitle') : t('importBooks.viewer.title')}
      </DialogTitle>
      <DialogContent dividers>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {books.map((book, i) => (
            <Stack key={book.label} spacing={1} sx={{ flex: 1, minWidth: 0, alignItems: 'center' }}>
              <Typography variant="subtitle2" dir="auto" sx={{ wordBreak: 'break-all', textAlign: 'center' }}>
                {book.label}
              </Typography>
              <PageControls label={book.label} page={pages[i]!} count={book.pageCount} onMove={(m) => moveOne(i, m)} />
              {book.pageCount > 0 && (
                <Box
                  component="img"
                  src={book.pageUrl(pages[i]!)}
                  alt={t('importBooks.viewer.pageAlt', { book: book.label, page: pages[i] })}
                  sx={{ maxWidth: '100%', maxHeight: '65vh', objectFit: 'contain' }}
                />
              )}
            </Stack>
          ))}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap' }}>
        {both && (
          <Box sx={{ flex: 1 }}>
            <PageControls
              label={t('importBooks.viewer.bothBooks')}
              page={Math.max(...pages)}
              count={maxCount}
              atStart={pages.every((p) => p <= 1)}
              atEnd={pages.every((p, i) => p >= books[i]!.pageCount)}
              onMove={moveAll}
            />
          </Box>
        )}
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
