import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import DownloadIcon from '@mui/icons-material/Download';
import ImageIcon from '@mui/icons-material/Image';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { useTranslation } from 'react-i18next';
import type { BookDto, ReadListDto } from '@quire/api';
import { useIsAdmin } from '../../api/auth';
import { useUploadPoster } from '../../api/metadata';
import { fetchPageImage, pageUrl, type BookPageDto } from '../../api/reader';

/** Posters are stored at most this size, each way (ui.md §11.1). */
const POSTER_MAX = 500;

/** The page as a JPEG file no larger than POSTER_MAX × POSTER_MAX. */
async function posterFile(blob: Blob, name: string): Promise<File> {
  const bitmap = await createImageBitmap(blob);
  const scale = Math.min(1, POSTER_MAX / bitmap.width, POSTER_MAX / bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const jpeg = await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob'))), 'image/jpeg', 0.9),
  );
  return new File([jpeg], `${name}.jpg`, { type: 'image/jpeg' });
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/jxl': 'jxl',
  'image/heif': 'heif',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
};

export interface PageMenuProps {
  book: BookDto;
  page: BookPageDto | undefined;
  readList: ReadListDto | undefined;
  /** Shows the outcome of setting a poster. */
  onMessage: (text: string, severity: 'success' | 'error') => void;
}

/** The reader's ⋮ menu: download the current page; for administrators, make it the book, series or read list poster. */
export function PageMenu({ book, page, readList, onMessage }: PageMenuProps) {
  const { t } = useTranslation();
  const admin = useIsAdmin();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const uploadBook = useUploadPoster('books');
  const uploadSeries = useUploadPoster('series');
  const uploadReadList = useUploadPoster('readlists');
  const close = () => setAnchor(null);

  const setPoster = async (target: 'book' | 'series' | 'readList') => {
    close();
    if (!page) return;
    try {
      const file = await posterFile(await fetchPageImage(book.id, page), `${book.name}-${page.number}`);
      if (target === 'book') await uploadBook.mutateAsync({ id: book.id, file });
      else if (target === 'series') await uploadSeries.mutateAsync({ id: book.seriesId, file });
      else if (readList) await uploadReadList.mutateAsync({ id: readList.id, file });
      const done = {
        book: 'reader.posterSetBook',
        series: 'reader.posterSetSeries',
        readList: 'reader.posterSetReadList',
      } as const;
      onMessage(t(done[target], { page: page.number }), 'success');
    } catch {
      onMessage(t('reader.posterFailed'), 'error');
    }
  };

  const ext = page ? EXTENSIONS[page.mediaType] : undefined;
  return (
    <>
      <Tooltip title={t('reader.moreActions')}>
        <IconButton
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={t('reader.moreActions')}
          aria-haspopup="menu"
          aria-expanded={anchor ? true : undefined}
        >
          <MoreVertIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={close}>
        <MenuItem
          component="a"
          href={page ? pageUrl(book.id, page.number, { download: true }) : undefined}
          download={page ? `${book.name}-${page.number}${ext ? `.${ext}` : ''}` : undefined}
          onClick={close}
          disabled={!page}
        >
          <ListItemIcon>
            <DownloadIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('reader.downloadPage')}</ListItemText>
        </MenuItem>
        {admin && (
          <MenuItem onClick={() => void setPoster('book')} disabled={!page}>
            <ListItemIcon>
              <ImageIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('reader.posterForBook')}</ListItemText>
          </MenuItem>
        )}
        {admin && !book.oneshot && (
          <MenuItem onClick={() => void setPoster('series')} disabled={!page}>
            <ListItemIcon>
              <ImageIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('reader.posterForSeries')}</ListItemText>
          </MenuItem>
        )}
        {admin && readList && (
          <MenuItem onClick={() => void setPoster('readList')} disabled={!page}>
            <ListItemIcon>
              <ImageIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('reader.posterForReadList')}</ListItemText>
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
