import { describe, expect, it } from 'vitest';
import type { ReadProgressDto } from '@quire/api';
import { exitPath, pageParam, readingContext, startPage } from './session';

const progress = (page: number, completed: boolean): ReadProgressDto => ({
  page,
  completed,
  readDate: '2026-01-01T00:00:00Z',
  created: '2026-01-01T00:00:00Z',
  lastModified: '2026-01-01T00:00:00Z',
  deviceId: '',
  deviceName: '',
});
const q = (s: string) => new URLSearchParams(s);

describe('readingContext', () => {
  it('reads the read-list context in any case, and incognito', () => {
    expect(readingContext(q('context=readlist&contextId=rl1&incognito=true'))).toEqual({
      readListId: 'rl1',
      incognito: true,
    });
    expect(readingContext(q('context=READLIST&contextId=rl2'))).toEqual({ readListId: 'rl2', incognito: false });
    expect(readingContext(q('contextId=rl3'))).toEqual({ readListId: null, incognito: false });
  });
});

describe('startPage', () => {
  it('prefers a valid ?page=', () => {
    expect(startPage(q('page=7'), { readProgress: progress(3, false) }, 10)).toBe(7);
    expect(pageParam(q('page=11'), 10)).toBeNull();
    expect(pageParam(q('page=0'), 10)).toBeNull();
    expect(pageParam(q('page=2.5'), 10)).toBeNull();
  });

  it('resumes a book in progress, and starts a finished or unread book at page 1', () => {
    expect(startPage(q('page=99'), { readProgress: progress(3, false) }, 10)).toBe(3);
    expect(startPage(q(''), { readProgress: progress(10, true) }, 10)).toBe(1);
    expect(startPage(q(''), { readProgress: null }, 10)).toBe(1);
  });
});

describe('exitPath', () => {
  it('closes to the book, or the one-shot, keeping the read-list context', () => {
    expect(exitPath({ id: 'b1', seriesId: 's1', oneshot: false }, { readListId: null, incognito: false })).toBe(
      '/book/b1',
    );
    expect(exitPath({ id: 'b1', seriesId: 's1', oneshot: true }, { readListId: 'r 1', incognito: true })).toBe(
      '/oneshot/s1?context=readlist&contextId=r%201',
    );
  });
});
