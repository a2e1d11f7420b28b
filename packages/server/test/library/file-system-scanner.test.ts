import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryOptions } from '../../src/domain/library.js';
import {
  DirectoryNotAccessibleError,
  scanLibraryFolder,
  type FileSystemScanResult,
  type ScanOptions,
} from '../../src/library/file-system-scanner.js';

/**
 * Times are set in the future so that mtime, not the (unsettable) birth time, is the later one and
 * the walk result is exact.
 */
const T0 = Date.UTC(2100, 0, 1);
let tmp: string;
let root: string;
let tick = 0;
const times = new Map<string, number>();

async function put(rel: string, size = 10): Promise<void> {
  const p = join(root, rel);
  await mkdir(dirname(p), { recursive: true });
  await writeFile(p, Buffer.alloc(size, 1));
  const t = T0 + ++tick * 1000 + 250; // a binary fraction of a second: exact through utimes' float seconds
  await utimes(p, t / 1000, t / 1000);
  times.set(rel, t);
}

/** Directory times are set last (writing files moves them). */
async function touchDir(rel: string): Promise<void> {
  const t = T0 + ++tick * 1000 + 500;
  await utimes(join(root, rel), t / 1000, t / 1000);
  times.set(rel, t);
}

const url = (rel: string) => pathToFileURL(join(root, rel)).href;
const dirUrl = (rel: string) => (rel === '' ? pathToFileURL(root).href : pathToFileURL(join(root, rel)).href) + '/';
const opts = (o: Partial<ScanOptions> = {}): ScanOptions => ({
  ...libraryOptions({ scanDirectoryExclusions: ['#recycle', '@eaDir', '@Recycle'], oneshotsDirectory: '_oneshots' }),
  ...o,
});

const book = (rel: string, name: string, size = 10, oneshot = false) => ({
  name,
  url: url(rel),
  path: join(root, rel),
  fileSize: size,
  fileLastModified: times.get(rel)!,
  oneshot,
});

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'quire-fss-'));
  root = join(tmp, 'My Library');
  // root files
  await put('Root Book.cbz', 11);
  await put('Root Book.jpg');
  await put('cover.jpg');
  await put('.hidden.cbz');
  await put('notes.txt');
  // a plain series with sidecars, mixed-case extensions and junk
  await put('Batman/Batman 001.cbz', 100);
  await put('Batman/Batman 002.CBR', 200);
  await put('Batman/Batman 001.jpg');
  await put('Batman/batman 001-2.PNG');
  await put('Batman/Batman 002-x.jpg'); // not a book sidecar: "-x"
  await put('Batman/folder.png');
  await put('Batman/SERIES.json');
  await put('Batman/Batman.nfo');
  await put('Batman/.DS_Store');
  await put('Batman/._Batman 001.cbz');
  // a sub-folder with books is an independent series
  await put('Batman/Annuals/Annual 1.pdf', 300);
  // a folder with only sub-folders is not a series; exclusions in different cases anywhere in the path
  await put('Marvel/X-Men/X-Men 01.epub', 400);
  await put('Marvel/X-Men/@EADIR/thumb.cbz');
  await put('Marvel/@eaDir/Deep/thumb.cbz');
  await put('#Recycle/Deleted.cbz');
  await put('Old @RECYCLE bin/Deleted.cbz');
  // hidden folders are skipped with their subtree
  await put('.hidden dir/Secret.cbz');
  await put('.hidden dir/Sub/Secret 2.cbz');
  // one-shots: each book its own series, nested folders too; series sidecars not collected
  await put('_OneShots/One Shot A.cbz', 500);
  await put('_OneShots/One Shot A.jpg');
  await put('_OneShots/cover.jpg');
  await put('_OneShots/nested/Deep Shot.pdf', 600);
  await put('Stuff/_oneshots extra/Shot B.epub', 700);
  // unsupported files only: no series, no sidecars
  await put('Unsupported/readme.txt');
  await put('Unsupported/image.png');
  await put('Unsupported/cover.jpg');
  await put('Unsupported/book.mobi');
  await put('Unsupported/archive.7zip');
  // unicode names
  await put('日本語 マンガ/ワンピース 第01巻.cbz', 800);
  await put('日本語 マンガ/Crème brûlée.epub', 900);
  await put('日本語 マンガ/ワンピース 第01巻.webp');
  // every archive extension Quire reads
  for (const e of ['cb7', '7z', 'cbt', 'tar', 'zip', 'rar', 'CBZ']) await put(`Archives/x.${e}`, 1000);
  // symbolic links: a followed file link, a broken link, a loop back to an ancestor
  await put('outside/Linked Target.cbz', 1234);
  await symlink(join(root, 'outside/Linked Target.cbz'), join(root, 'Batman/Batman 003.cbz'));
  await symlink(join(root, 'nowhere.cbz'), join(root, 'Batman/Broken.cbz'));
  await symlink(join(root, 'Marvel'), join(root, 'Marvel/X-Men/loop'));
  for (const d of [
    'Batman/Annuals',
    'Batman',
    'Marvel/X-Men',
    '_OneShots/nested',
    '_OneShots',
    'Stuff/_oneshots extra',
    'Unsupported',
    '日本語 マンガ',
    'Archives',
    'outside',
    '',
  ])
    await touchDir(d);
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('scanLibraryFolder (engine.md §2.1–2.3)', () => {
  let result: FileSystemScanResult;
  beforeAll(async () => {
    result = await scanLibraryFolder(root, opts());
  });

  it('maps folders to series, exactly', () => {
    const batman003 = {
      ...book('outside/Linked Target.cbz', 'Batman 003', 1234),
      url: url('Batman/Batman 003.cbz'),
      path: join(root, 'Batman/Batman 003.cbz'),
    };
    expect(result.series).toEqual([
      {
        name: 'My Library',
        url: dirUrl(''),
        path: root,
        fileLastModified: times.get(''),
        oneshot: false,
        books: [book('Root Book.cbz', 'Root Book', 11)],
      },
      {
        name: 'Archives',
        url: dirUrl('Archives'),
        path: join(root, 'Archives'),
        fileLastModified: times.get('Archives'),
        oneshot: false,
        books: ['7z', 'CBZ', 'cb7', 'cbt', 'rar', 'tar', 'zip'].map((e) => book(`Archives/x.${e}`, 'x', 1000)),
      },
      {
        name: 'Batman',
        url: dirUrl('Batman'),
        path: join(root, 'Batman'),
        fileLastModified: times.get('Batman'),
        oneshot: false,
        books: [
          book('Batman/Batman 001.cbz', 'Batman 001', 100),
          book('Batman/Batman 002.CBR', 'Batman 002', 200),
          batman003,
        ],
      },
      {
        name: 'Annuals',
        url: dirUrl('Batman/Annuals'),
        path: join(root, 'Batman/Annuals'),
        fileLastModified: times.get('Batman/Annuals'),
        oneshot: false,
        books: [book('Batman/Annuals/Annual 1.pdf', 'Annual 1', 300)],
      },
      {
        name: 'X-Men',
        url: dirUrl('Marvel/X-Men'),
        path: join(root, 'Marvel/X-Men'),
        fileLastModified: times.get('Marvel/X-Men'),
        oneshot: false,
        books: [book('Marvel/X-Men/X-Men 01.epub', 'X-Men 01', 400)],
      },
      ...[
        ['Stuff/_oneshots extra/Shot B.epub', 'Shot B', 700],
        ['_OneShots/One Shot A.cbz', 'One Shot A', 500],
        ['_OneShots/nested/Deep Shot.pdf', 'Deep Shot', 600],
      ].map(([rel, name, size]) => {
        const b = book(rel as string, name as string, size as number, true);
        return {
          name: b.name,
          url: b.url,
          path: b.path,
          fileLastModified: b.fileLastModified,
          oneshot: true,
          books: [b],
        };
      }),
      {
        name: 'outside',
        url: dirUrl('outside'),
        path: join(root, 'outside'),
        fileLastModified: times.get('outside'),
        oneshot: false,
        books: [book('outside/Linked Target.cbz', 'Linked Target', 1234)],
      },
      {
        name: '日本語 マンガ',
        url: dirUrl('日本語 マンガ'),
        path: join(root, '日本語 マンガ'),
        fileLastModified: times.get('日本語 マンガ'),
        oneshot: false,
        books: [
          book('日本語 マンガ/Crème brûlée.epub', 'Crème brûlée', 900),
          book('日本語 マンガ/ワンピース 第01巻.cbz', 'ワンピース 第01巻', 800),
        ],
      },
    ]);
  });

  it('collects sidecars of series folders and books', () => {
    const sc = (rel: string, parentUrl: string, type: string, source: string) => ({
      url: url(rel),
      path: join(root, rel),
      parentUrl,
      fileLastModified: times.get(rel),
      type,
      source,
    });
    expect(result.sidecars).toEqual([
      sc('cover.jpg', dirUrl(''), 'ARTWORK', 'SERIES'),
      sc('Root Book.jpg', url('Root Book.cbz'), 'ARTWORK', 'BOOK'),
      sc('Batman/SERIES.json', dirUrl('Batman'), 'METADATA', 'SERIES'),
      sc('Batman/folder.png', dirUrl('Batman'), 'ARTWORK', 'SERIES'),
      sc('Batman/Batman 001.jpg', url('Batman/Batman 001.cbz'), 'ARTWORK', 'BOOK'),
      sc('Batman/batman 001-2.PNG', url('Batman/Batman 001.cbz'), 'ARTWORK', 'BOOK'),
      sc('_OneShots/One Shot A.jpg', url('_OneShots/One Shot A.cbz'), 'ARTWORK', 'BOOK'),
      sc('日本語 マンガ/ワンピース 第01巻.webp', url('日本語 マンガ/ワンピース 第01巻.cbz'), 'ARTWORK', 'BOOK'),
    ]);
  });

  it('reports the symbolic-link loop and the broken link', () => {
    expect(result.unreadableFolders).toEqual([
      { path: join(root, 'Marvel/X-Men/loop'), url: dirUrl('Marvel/X-Men/loop'), code: 'LOOP' },
    ]);
    expect(result.skippedFiles).toEqual([{ path: join(root, 'Batman/Broken.cbz'), code: 'ENOENT' }]);
  });

  it.each([
    [{ scanCbx: false }, ['Annuals', 'X-Men', 'Shot B', 'Deep Shot', '日本語 マンガ']],
    [
      { scanPdf: false, scanEpub: false },
      ['My Library', 'Archives', 'Batman', 'One Shot A', 'outside', '日本語 マンガ'],
    ],
    [{ scanCbx: false, scanPdf: false, scanEpub: false }, []],
  ])('scan flags %j', async (flags, names) => {
    const r = await scanLibraryFolder(root, opts(flags));
    expect(r.series.map((s) => s.name)).toEqual(names);
  });

  it('without exclusions and one-shots, everything but hidden entries is walked', async () => {
    const r = await scanLibraryFolder(root, opts({ scanDirectoryExclusions: [], oneshotsDirectory: null }));
    expect(r.series.map((s) => s.name)).toEqual([
      'My Library',
      '#Recycle',
      'Archives',
      'Batman',
      'Annuals',
      'Deep',
      'X-Men',
      '@EADIR',
      'Old @RECYCLE bin',
      '_oneshots extra',
      '_OneShots',
      'nested',
      'outside',
      '日本語 マンガ',
    ]);
    expect(r.sidecars.filter((s) => s.source === 'SERIES').map((s) => s.url)).toContain(url('_OneShots/cover.jpg'));
  });

  it('exclusions match the path below the root only: an exclusion found in the root path does not empty the library', async () => {
    const r = await scanLibraryFolder(
      root,
      opts({ scanDirectoryExclusions: ['#recycle', '@eaDir', '@Recycle', 'my library', 'quire-fss'] }),
    );
    expect(r.series.length).toBe(10);
  });

  it('scanForceModifiedTime: series time = max(folder, newest book)', async () => {
    const newer = T0 + 10_000_000;
    await utimes(join(root, 'Batman/Batman 002.CBR'), newer / 1000, newer / 1000);
    try {
      const plain = await scanLibraryFolder(root, opts());
      const forced = await scanLibraryFolder(root, opts({ scanForceModifiedTime: true }));
      const batman = (r: FileSystemScanResult) => r.series.find((s) => s.name === 'Batman')!.fileLastModified;
      expect(batman(plain)).toBe(times.get('Batman'));
      expect(batman(forced)).toBe(newer);
    } finally {
      const t = times.get('Batman/Batman 002.CBR')!;
      await utimes(join(root, 'Batman/Batman 002.CBR'), t / 1000, t / 1000);
      await touchDir('Batman');
    }
  });

  it('a root whose name starts with a dot is still walked', async () => {
    const hiddenRoot = join(tmp, '.hidden-root');
    await mkdir(hiddenRoot);
    await writeFile(join(hiddenRoot, 'b.cbz'), 'x');
    const r = await scanLibraryFolder(hiddenRoot, opts());
    expect(r.series.map((s) => [s.name, s.books.length])).toEqual([['.hidden-root', 1]]);
  });

  it('skips and reports links whose real path is outside the root; follows the root itself through a link', async () => {
    const lib = join(tmp, 'linked-lib');
    const away = join(tmp, 'away');
    await mkdir(join(lib, 'S'), { recursive: true });
    await mkdir(join(away, 'Far Series'), { recursive: true });
    await writeFile(join(lib, 'S', 'in.cbz'), 'x');
    await writeFile(join(away, 'far.cbz'), 'x');
    await writeFile(join(away, 'Far Series', 'f.cbz'), 'x');
    await writeFile(join(away, 'cover.jpg'), 'x');
    await symlink('/etc/passwd', join(lib, 'S', 'passwd.cbz'));
    await symlink(join(away, 'far.cbz'), join(lib, 'S', 'far.cbz'));
    await symlink(join(away, 'cover.jpg'), join(lib, 'S', 'cover.jpg'));
    await symlink(join(away, 'Far Series'), join(lib, 'Far'));
    // The root reached through a link: its own links are judged against the real root.
    await symlink(lib, join(tmp, 'lib-alias'));
    try {
      for (const r of [await scanLibraryFolder(lib, opts()), await scanLibraryFolder(join(tmp, 'lib-alias'), opts())]) {
        expect(r.series.flatMap((s) => s.books.map((b) => b.name))).toEqual(['in']);
        expect(r.sidecars).toEqual([]);
        expect(r.linksOutsideRoot.map((l) => l.target).sort()).toEqual(
          ['/etc/passwd', join(away, 'Far Series'), join(away, 'cover.jpg'), join(away, 'far.cbz')].sort(),
        );
      }
    } finally {
      await rm(lib, { recursive: true });
      await rm(away, { recursive: true });
      await rm(join(tmp, 'lib-alias'));
    }
  });

  it.each([
    ['missing', () => join(tmp, 'nope')],
    ['a file', () => join(root, 'notes.txt')],
  ])('root %s → ERR_1016', async (_l, path) => {
    await expect(scanLibraryFolder(path(), opts())).rejects.toBeInstanceOf(DirectoryNotAccessibleError);
    await expect(scanLibraryFolder(path(), opts())).rejects.toMatchObject({ message: 'ERR_1016' });
  });

  it('an unreadable sub-folder is reported, not fatal', async () => {
    const locked = join(root, 'Locked');
    await mkdir(locked);
    await writeFile(join(locked, 'l.cbz'), 'x');
    await chmod(locked, 0);
    try {
      const r = await walkAsUnprivilegedUser(root, opts());
      expect(r.unreadableFolders.map((f) => [f.url, f.code])).toContainEqual([dirUrl('Locked'), 'EACCES']);
      // The rest of the library is still walked.
      expect(r.series.length).toBeGreaterThan(0);
    } finally {
      await chmod(locked, 0o755);
      await rm(locked, { recursive: true });
    }
  });
});

describe('walk performance', () => {
  it('walks 5,000 files in 250 folders', async () => {
    const big = await mkdtemp(join(tmpdir(), 'quire-fss-big-'));
    try {
      for (let f = 0; f < 250; f++) {
        const d = join(big, `Publisher ${f % 10}`, `Series ${f}`);
        await mkdir(d, { recursive: true });
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            writeFile(join(d, i === 0 ? 'cover.jpg' : `Series ${f} - ${String(i).padStart(3, '0')}.cbz`), 'x'),
          ),
        );
      }
      const options = opts();
      await scanLibraryFolder(big, options); // warm-up
      const start = performance.now();
      const r = await scanLibraryFolder(big, options);
      const ms = performance.now() - start;
      console.log(`walk of 5,000 files in 250 series folders (+10 parent folders): ${ms.toFixed(1)} ms`);
      expect(r.series).toHaveLength(250);
      expect(r.series.reduce((n, s) => n + s.books.length, 0)).toBe(4750);
      expect(r.sidecars).toHaveLength(250);
      expect(ms).toBeLessThan(20_000);
    } finally {
      await rm(big, { recursive: true, force: true });
    }
  });
});

/**
 * Permissions do not stop root, and CI runs as root: there the walk runs in a child process that loads the
 * scanner source (through tsx) and then drops to `nobody`, so an unreadable folder really is unreadable
 * whatever the permissions of the checkout.
 */
async function walkAsUnprivilegedUser(path: string, options: ScanOptions): Promise<FileSystemScanResult> {
  if (process.getuid?.() !== 0) return scanLibraryFolder(path, options);
  for (let dir = path; dir !== dirname(dir); dir = dirname(dir)) {
    if (dir.startsWith(tmpdir()) && dir !== tmpdir()) await chmod(dir, 0o755);
  }
  const scanner = pathToFileURL(join(import.meta.dirname, '../../src/library/file-system-scanner.ts')).href;
  const script = `const { scanLibraryFolder } = await import(${JSON.stringify(scanner)});
    process.setgid(65534);
    process.setuid(65534);
    const r = await scanLibraryFolder(${JSON.stringify(path)}, ${JSON.stringify(options)});
    process.stdout.write(JSON.stringify(r));`;
  const out = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: join(import.meta.dirname, '..') },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
  return JSON.parse(out) as FileSystemScanResult;
}
