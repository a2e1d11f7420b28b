import type { ThumbnailBookDto, ThumbnailSeriesDto } from '@quire/api';
import type { StoredThumbnail } from '../../library/thumbnails.js';

const common = (t: StoredThumbnail) => ({
  id: t.id,
  type: t.type,
  selected: t.selected,
  mediaType: t.mediaType,
  fileSize: t.fileSize,
  width: t.width,
  height: t.height,
});

export const toThumbnailBookDto = (t: StoredThumbnail): ThumbnailBookDto => ({ ...common(t), bookId: t.ownerId });

export const toThumbnailSeriesDto = (t: StoredThumbnail): ThumbnailSeriesDto => ({
  ...common(t),
  seriesId: t.ownerId,
});
