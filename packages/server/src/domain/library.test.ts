import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIBRARY_OPTIONS,
  SCAN_INTERVAL_MS,
  bookExtensions,
  bookSidecarMatcher,
  fileExtension,
  isBookSidecarCandidate,
  libraryOptions,
  libraryUpdateNeedsScan,
  rootsOverlap,
  seriesLastModified,
  seriesSidecarType,
} from './library.js';

describe('library options (engine.md §1.2)', () => {
  it('has Komga defaults', () => {
    expect(DEFAULT_LIBRARY_OPTIONS).toMatchObject({
      scanInterval: 'EVERY_6H',
      seriesCover: 'FIRST',
      hashFiles: true,
      hashPages: false,
      hashKoreader: false,
      analyzeDimensions: true,
      scanCbx: true,
      scanPdf: true,
      scanEpub: true,
      scanForceModifiedTime: false,
      scanOnStartup: false,
      emptyTrashAfterScan: false,
      repairExtensions: false,
      convertToCbz: false,
      scanDirectoryExclusions: [],
      oneshotsDirectory: null,
      importComicInfoSeriesAppendVolume: true,
      importBarcodeIsbn: true,
    });
  });

  it.each([
    ['', null],
    ['   ', null],
    [null, null],
    ['_oneshots', '_oneshots'],
  ])('oneshotsDirectory %j → %j', (value, expected) => {
    expect(libraryOptions({ oneshotsDirectory: value }).oneshotsDirectory).toBe(expected);
  });

  it('intervals', () => {
    expect(SCAN_INTERVAL_MS.DISABLED).toBeNull();
    expect(SCAN_INTERVAL_MS.EVERY_6H).toBe(6 * 3_600_000);
    expect(SCAN_INTERVAL_MS.WEEKLY).toBe(7 * 24 * 3_600_000);
  });

  it.each([
    [{ scanCbx: true, scanPdf: false, scanEpub: false }, ['cbz', 'zip', 'cbr', 'rar', 'cb7', '7z', 'cbt', 'tar']],
    [{ scanCbx: false, scanPdf: true, scanEpub: true }, ['pdf', 'epub']],
    [{ scanCbx: false, scanPdf: false, scanEpub: false }, []],
  ])('extensions for %j', (flags, exts) => {
    expect([...bookExtensions(flags)]).toEqual(exts);
  });

  it.each([
    ['a.CBZ', 'cbz'],
    ['a.b.Cbr', 'cbr'],
    ['noext', ''],
  ])('fileExtension(%j) = %j', (name, ext) => {
    expect(fileExtension(name)).toBe(ext);
  });

  it.each([
    [{ root: '/b' }, true],
    [{ scanPdf: false }, true],
    [{ oneshotsDirectory: 'x' }, true],
    [{ scanForceModifiedTime: true }, true],
    [{ scanDirectoryExclusions: ['@eaDir'] }, true],
    [{ hashFiles: false }, false],
    [{ scanInterval: 'DAILY' as const }, false],
  ])('update %j needs a scan: %s (§2.9)', (patch, expected) => {
    const before = { root: '/a', ...libraryOptions() };
    expect(libraryUpdateNeedsScan(before, { ...before, ...patch })).toBe(expected);
  });

  it('exclusion order does not matter', () => {
    const before = { root: '/a', ...libraryOptions({ scanDirectoryExclusions: ['x', 'y'] }) };
    expect(libraryUpdateNeedsScan(before, { ...before, scanDirectoryExclusions: ['y', 'x'] })).toBe(false);
  });

  it.each([
    ['/comics', '/comics2', false],
    ['/comics', '/comics/marvel', true],
    ['/comics/', '/comics', true],
    ['/a/b', '/a/c', false],
  ])('rootsOverlap(%j, %j) = %s', (a, b, expected) => {
    expect(rootsOverlap(a, b)).toBe(expected);
    expect(rootsOverlap(b, a)).toBe(expected);
  });
});

describe('sidecar names (engine.md §2.3)', () => {
  it.each([
    ['cover.jpg', 'ARTWORK'],
    ['Folder.PNG', 'ARTWORK'],
    ['poster.webp', 'ARTWORK'],
    ['series.tbn', 'ARTWORK'],
    ['default.gif', 'ARTWORK'],
    ['series.json', 'METADATA'],
    ['SERIES.JSON', 'METADATA'],
    ['cover.bmp', null],
    ['cover2.jpg', null],
    ['back cover.jpg', null],
  ])('series sidecar %j → %j', (name, type) => {
    expect(seriesSidecarType(name)).toBe(type);
  });

  it.each([
    ['Book 1.jpg', true],
    ['book 1-2.PNG', true],
    ['BOOK 1.jpeg', true],
    ['Book 1-x.jpg', false],
    ['Book 10.jpg', false],
    ['Book 1.cbz', false],
    ['Book 1.txt', false],
  ])('book sidecar of "Book 1": %j → %s', (name, matches) => {
    expect(isBookSidecarCandidate(name) && bookSidecarMatcher('Book 1')(name)).toBe(matches);
  });

  it('escapes regex characters in book names', () => {
    expect(bookSidecarMatcher('Batman (2016) [v1.0]')('batman (2016) [v1.0]-3.jpg')).toBe(true);
    expect(bookSidecarMatcher('a.b')('axb.jpg')).toBe(false);
  });
});

describe('seriesLastModified (engine.md §2.2, scanForceModifiedTime)', () => {
  it.each([
    [100, [50, 200], false, 100],
    [100, [50, 200], true, 200],
    [300, [50, 200], true, 300],
    [100, [], true, 100],
  ])('folder %d, books %j, force %s → %d', (folder, books, force, expected) => {
    expect(seriesLastModified(folder, books, force)).toBe(expected);
  });
});
