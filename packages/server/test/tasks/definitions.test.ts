import { describe, expect, it } from 'vitest';
import { TASK_KINDS, groupIdOf, uniqueIdOf, type Task } from '../../src/tasks/definitions.js';

describe('task definitions (engine.md appendix B)', () => {
  it.each<[Task, string, string | null]>([
    [{ kind: 'ScanLibrary', libraryId: 'L', deep: true }, 'SCAN_LIBRARY_L_DEEP_true', null],
    [{ kind: 'ScanLibrary', libraryId: 'L', deep: false }, 'SCAN_LIBRARY_L_DEEP_false', null],
    [{ kind: 'EmptyTrash', libraryId: 'L' }, 'EMPTY_TRASH_L', null],
    [{ kind: 'AnalyzeBook', bookId: 'B', seriesId: 'S' }, 'ANALYZE_BOOK_B', 'S'],
    [{ kind: 'GenerateBookThumbnail', bookId: 'B' }, 'GENERATE_BOOK_THUMBNAIL_B', null],
    [
      { kind: 'RefreshBookMetadata', bookId: 'B', seriesId: 'S', capabilities: ['TITLE'] },
      'REFRESH_BOOK_METADATA_B',
      'S',
    ],
    [{ kind: 'RefreshSeriesMetadata', seriesId: 'S' }, 'REFRESH_SERIES_METADATA_S', 'S'],
    [{ kind: 'AggregateSeriesMetadata', seriesId: 'S' }, 'AGGREGATE_SERIES_METADATA_S', 'S'],
    [{ kind: 'RefreshBookLocalArtwork', bookId: 'B' }, 'REFRESH_BOOK_LOCAL_ARTWORK_B', null],
    [{ kind: 'RefreshSeriesLocalArtwork', seriesId: 'S' }, 'REFRESH_SERIES_LOCAL_ARTWORK_S', null],
    [{ kind: 'HashBook', bookId: 'B' }, 'HASH_BOOK_B', null],
    [{ kind: 'HashBookPages', bookId: 'B' }, 'HASH_BOOK_PAGES_B', null],
    [{ kind: 'HashBookKoreader', bookId: 'B' }, 'HASH_BOOK_KOREADER_B', null],
    [
      {
        kind: 'ImportBook',
        sourceFile: '/in/b.cbz',
        seriesId: 'S',
        copyMode: 'COPY',
        destinationName: null,
        upgradeBookId: null,
      },
      'IMPORT_BOOK_S_/in/b.cbz',
      'S',
    ],
    [{ kind: 'ConvertBook', bookId: 'B', seriesId: 'S' }, 'CONVERT_BOOK_B', 'S'],
    [{ kind: 'RepairExtension', bookId: 'B', seriesId: 'S' }, 'REPAIR_EXTENSION_B', 'S'],
    [{ kind: 'FindDuplicatePagesToDelete', libraryId: 'L' }, 'FIND_DUPLICATE_PAGES_TO_DELETE_L', null],
    [
      {
        kind: 'RemoveHashedPages',
        bookId: 'B',
        seriesId: 'S',
        pages: [
          { hash: 'h2', fileName: 'b.jpg', mediaType: 'image/jpeg', number: 4 },
          { hash: 'h1', fileName: 'a.jpg', mediaType: 'image/jpeg', number: 0 },
        ],
      },
      'REMOVE_HASHED_PAGES_B_h1:a.jpg|h2:b.jpg',
      'S',
    ],
    [{ kind: 'DeleteBook', bookId: 'B' }, 'DELETE_BOOK_B', null],
    [{ kind: 'DeleteSeries', seriesId: 'S' }, 'DELETE_SERIES_S', null],
    [{ kind: 'FindBookThumbnailsToRegenerate', forBiggerResultOnly: true }, 'FIND_BOOK_THUMBNAILS_TO_REGENERATE', null],
  ])('%o has unique id %s and group %s', (task, uniqueId, groupId) => {
    expect(uniqueIdOf(task)).toBe(uniqueId);
    expect(groupIdOf(task)).toBe(groupId);
  });

  it('lists the Komga task type names of api.md §6 that Quire queues', () => {
    expect([...TASK_KINDS].sort()).toEqual(
      [
        'ScanLibrary',
        'FindBooksToConvert',
        'FindBooksWithMissingPageHash',
        'FindDuplicatePagesToDelete',
        'EmptyTrash',
        'AnalyzeBook',
        'GenerateBookThumbnail',
        'RefreshBookMetadata',
        'HashBook',
        'HashBookPages',
        'HashBookKoreader',
        'RefreshSeriesMetadata',
        'AggregateSeriesMetadata',
        'RefreshBookLocalArtwork',
        'RefreshSeriesLocalArtwork',
        'ImportBook',
        'ConvertBook',
        'RepairExtension',
        'RemoveHashedPages',
        'DeleteBook',
        'DeleteSeries',
        'FindBookThumbnailsToRegenerate',
      ].sort(),
    );
  });
});
