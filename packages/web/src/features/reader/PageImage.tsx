import { memo, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { pageUrl, browserShows, type BookPageDto } from '../../api/reader';
import { isBlank, type SpreadPage } from './spreads';

export interface PageImageProps {
  bookId: string;
  /** The page, or a blank filler of a two-page spread. */
  page: SpreadPage;
  /** The page's listing entry (media type), absent for blanks. */
  entry?: BookPageDto;
  /** Give the image its source: pages far from the current one wait. */
  load: boolean;
  /** The width the page is drawn at, in device pixels, for a page rendered by the server (PDF). */
  width?: number;
  /** The image has arrived, or failed for good: the next page may be asked for. */
  onSettled?: (page: number) => void;
  style: CSSProperties;
}

/**
 * One page image. Pages the browser cannot show are asked for as JPEG; a page that fails to decode as stored is asked
 * for again as JPEG. Once loaded, the image is decoded ahead of being shown, so turning to it paints at once.
 */
export const PageImage = memo(function PageImage({
  bookId,
  page,
  entry,
  load,
  width,
  onSettled,
  style,
}: PageImageProps) {
  const { t } = useTranslation();
  const [convert, setConvert] = useState(() => !!entry && !browserShows(entry.mediaType));
  if (isBlank(page)) {
    return <canvas width={page.width} height={page.height} style={style} aria-hidden="true" />;
  }
  return (
    <img
      src={load ? pageUrl(bookId, page.number, { convert, width }) : undefined}
      width={page.width ?? undefined}
      height={page.height ?? undefined}
      alt={t('reader.pageAlt', { page: page.number })}
      draggable={false}
      decoding="async"
      style={style}
      onLoad={(e) => {
        onSettled?.(page.number);
        void e.currentTarget.decode?.().catch(() => undefined);
      }}
      onError={() => {
        if (!convert) setConvert(true);
        else onSettled?.(page.number);
      }}
    />
  );
});
