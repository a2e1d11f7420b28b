import { describe, expect, it } from 'vitest';
import type { ThumbnailType } from '@quire/api';
import { MAX_THUMBNAIL_UPLOAD_BYTES } from '@quire/api/constants';
import { emptyPosterState, posterChangesOf, queueFiles } from './PosterEditor';

const image = (name: string, size = 10) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const stored = (id: string, selected: boolean, type: ThumbnailType = 'USER_UPLOADED') => ({
  id,
  bookId: 'book',
  type,
  selected,
  mediaType: 'image/png',
  fileSize: 10,
  width: 1,
  height: 1,
});

describe('poster changes', () => {
  it('pre-selects the first usable new file and never uploads one that is too big', () => {
    const big = image('big.png', MAX_THUMBNAIL_UPLOAD_BYTES + 1);
    const state = queueFiles(emptyPosterState, [
      big,
      image('ok.png'),
      new File(['x'], 'notes.txt', { type: 'text/plain' }),
    ]);
    expect(state.queued.map((q) => q.file.name)).toEqual(['big.png', 'ok.png']);
    expect(state.selected).toBe(state.queued[1]!.key);
    expect(posterChangesOf(state, [])).toEqual({
      uploads: [{ file: state.queued[1]!.file, selected: true }],
      select: null,
      remove: [],
    });
  });

  it('selects an existing poster only when it is not already the selected one, and removes marked ones', () => {
    const existing = [stored('a', true, 'GENERATED'), stored('b', false)];
    expect(posterChangesOf({ ...emptyPosterState, selected: 'a' }, existing)).toEqual({
      uploads: [],
      select: null,
      remove: [],
    });
    expect(posterChangesOf({ queued: [], selected: 'b', removed: ['b', 'gone'] }, existing)).toEqual({
      uploads: [],
      select: 'b',
      remove: ['b'],
    });
  });
});
