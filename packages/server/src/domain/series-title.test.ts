import { describe, expect, it } from 'vitest';
import {
  initialSeriesMetadata,
  restoredBookTitle,
  restoredSeriesTitles,
  seriesNameFromFolder,
  seriesWithVolume,
} from './series-title.js';

describe('seriesNameFromFolder (engine.md §2.2)', () => {
  it.each([
    ['/comics/Batman (2016)', 'Batman (2016)'],
    ['/comics/Batman/', 'Batman'],
    ['/comics/The Walking Dead', 'The Walking Dead'],
    ['/mnt/マンガ/ワンピース', 'ワンピース'],
    ['/', '/'],
    ['relative', 'relative'],
  ])('%j → %j', (path, name) => {
    expect(seriesNameFromFolder(path)).toBe(name);
  });
});

describe('initial series metadata (engine.md §3.1)', () => {
  it.each([
    ['The Walking Dead', 'The Walking Dead', 'The Walking Dead'],
    ['  Spaced  ', 'Spaced', 'Spaced'],
    ['A Series', 'A Series', 'A Series'],
  ])('%j → title %j, titleSort %j (no article stripping)', (name, title, titleSort) => {
    expect(initialSeriesMetadata(name)).toEqual({ title, titleSort });
  });
});

describe('restores keep titles only when locked (engine.md §2.7)', () => {
  it.each([
    [false, false, 'New', 'New'],
    [true, false, 'Old', 'New'],
    [false, true, 'New', 'old sort'],
    [true, true, 'Old', 'old sort'],
  ])('titleLock %s, titleSortLock %s', (titleLock, titleSortLock, title, titleSort) => {
    expect(restoredSeriesTitles({ title: 'Old', titleSort: 'old sort', titleLock, titleSortLock }, 'New')).toEqual({
      title,
      titleSort,
    });
  });

  it.each([
    [true, { title: 'Custom', refreshTitle: false }],
    [false, { title: 'book 2', refreshTitle: true }],
  ])('book titleLock %s', (titleLock, expected) => {
    expect(restoredBookTitle({ title: 'Custom', titleLock }, 'book 2')).toEqual(expected);
  });
});

describe('seriesWithVolume (engine.md §3.5)', () => {
  it.each([
    ['Series', null, 'Series'],
    ['Series', 1, 'Series'],
    ['Series', 10, 'Series (10)'],
    ['Series', 0, 'Series (0)'],
    ['', null, null],
    ['   ', 2, null],
    [null, 2, null],
  ])('(%j, %j) → %j', (series, volume, expected) => {
    expect(seriesWithVolume(series, volume)).toBe(expected);
  });
});
