import { describe, expect, it } from 'vitest';
import { buildLibrary } from '../../test/fixtures';
import { creationBody, libraryFormOf, newLibraryForm, updateChanges, validateLibrary } from './library-form';

describe('library form rules', () => {
  const others = [{ name: 'Comics' }];
  it.each([
    [
      { name: '', root: '' },
      { name: 'required', root: 'required' },
    ],
    [{ name: '  ', root: '/data' }, { name: 'required' }],
    [{ name: 'Comics', root: '/data' }, { name: 'duplicate' }],
    [{ name: ' Comics ', root: '/data' }, { name: 'duplicate' }],
    [{ name: 'comics', root: '/data' }, {}],
    [{ name: 'Manga', root: ' ' }, { root: 'required' }],
  ])('%j gives %j', (form, errors) => expect(validateLibrary(form, others)).toEqual(errors));

  it('creates with every default of engine.md §1.2 and the pre-filled exclusions', () => {
    expect(creationBody({ ...newLibraryForm(), name: ' Manga ', root: ' /data/manga ' })).toEqual({
      name: 'Manga',
      root: '/data/manga',
      importComicInfoBook: true,
      importComicInfoSeries: true,
      importComicInfoCollection: true,
      importComicInfoReadList: true,
      importComicInfoSeriesAppendVolume: true,
      importEpubBook: true,
      importEpubSeries: true,
      importMylarSeries: true,
      importLocalArtwork: true,
      importBarcodeIsbn: false,
      scanForceModifiedTime: false,
      scanInterval: 'EVERY_6H',
      scanOnStartup: false,
      scanCbx: true,
      scanPdf: true,
      scanEpub: true,
      scanDirectoryExclusions: ['#recycle', '@eaDir', '@Recycle'],
      repairExtensions: false,
      convertToCbz: false,
      emptyTrashAfterScan: false,
      seriesCover: 'FIRST',
      hashFiles: true,
      hashPages: false,
      hashKoreader: false,
      analyzeDimensions: true,
    });
  });

  it('sends the one-shots directory only when filled', () => {
    expect(creationBody({ ...newLibraryForm(), oneshotsDirectory: ' _oneshots ' }).oneshotsDirectory).toBe('_oneshots');
  });

  it('keeps only what changed when editing', () => {
    const initial = libraryFormOf(buildLibrary({ oneshotsDirectory: '_oneshots' }));
    expect(updateChanges(initial, initial)).toEqual({});
    expect(
      updateChanges(initial, {
        ...initial,
        name: 'Comics 2',
        hashPages: true,
        scanDirectoryExclusions: ['@eaDir', '#recycle', '@Recycle'],
      }),
    ).toEqual({ name: 'Comics 2', hashPages: true });
    expect(updateChanges(initial, { ...initial, oneshotsDirectory: '' })).toEqual({ oneshotsDirectory: '' });
    expect(updateChanges(initial, { ...initial, scanDirectoryExclusions: [] })).toEqual({
      scanDirectoryExclusions: [],
    });
  });
});
