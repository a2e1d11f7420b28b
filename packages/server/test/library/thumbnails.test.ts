import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { QuireEvent } from '@quire/api';
import { openDatabase, type OpenedDatabase } from '../../src/db/database.js';
import { databaseOf } from '../support/postgres.js';
import { createEventBus } from '../../src/events/bus.js';
import { createSettingsStore } from '../../src/settings/server-settings.js';
import { createRepositories, createUnitOfWork } from '../../src/db/unit-of-work.js';
import { LibraryFiles } from '../../src/library/library-files.js';
import { PdfService } from '../../src/media/pdf/index.js';
import {
  createThumbnails,
  deleteThumbnailFiles,
  thumbnailFolder,
  type Thumbnails,
} from '../../src/library/thumbnails.js';
import { imageDimensions } from '../../src/media/images.js';
import type { SettingsStore } from '../../src/domain/settings.js';
import { fixture } from '../support/fixtures.js';
import {
  makeBook,
  makeLibrary,
  makeSeries,
  makeUser,
  setProgress,
  setSeriesCover,
} from '../support/thumbnail-factories.js';

const CBZ = fixture('archives/futuristic_tales.cbz'); // first page 654×1040 JPEG
const SMALL_CBZ = fixture('archives/Captain Science #001.cbz'); // first page 114×160 JPEG
const EPUB = fixture('epub/The Incomplete Theft - Ralph Burke.epub'); // OPF cover 461×616
const PDF = fixture('pdf/komga.pdf'); // one 512×512 pt page

const isJpeg = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
const dims = (b: Uint8Array) => imageDimensions(b)!;
const solid = (width: number, height: number, rgb: [number, number, number], format: 'png' | 'jpeg' = 'png') => {
  const image = sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } });
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
};
/** Mean colour of an image: tells posters made from differently coloured sources apart. */
const colour = async (b: Uint8Array) => {
  const { channels } = await sharp(b).stats();
  return channels.slice(0, 3).map((c) => Math.round(c.mean));
};

let opened: OpenedDatabase;
let dataDir: string;
let work: string;
let settings: SettingsStore;
const pdf = new PdfService({ workers: 1 });
let svc: Thumbnails;
let events: QuireEvent[];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'quire-thumbs-'));
  work = await mkdtemp(join(tmpdir(), 'quire-thumbs-books-'));
  opened = await openDatabase(await databaseOf(dataDir));
  const repos = createRepositories(opened.db);
  settings = createSettingsStore(repos.serverSettings);
  const bus = createEventBus();
  events = [];
  bus.subscribe((e) => events.push(e));
  const files = new LibraryFiles({ libraries: repos.libraries });
  svc = createThumbnails({
    thumbnails: repos.thumbnails,
    uow: createUnitOfWork(opened.db),
    events: bus,
    settings,
    dataDir,
    files,
    pdf,
    tasks: undefined as never,
  });
});
afterAll(async () => {
  await pdf.close();
  await opened.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});
beforeEach(async () => {
  events.length = 0;
  await settings.update({ thumbnailSize: 'DEFAULT' });
});

/** A folder holding a link to a real book (read in place) and, optionally, artwork beside it. */
async function bookFolder(name: string, source = CBZ) {
  const folder = await mkdtemp(join(work, 'series-'));
  const file = join(folder, `${name}.cbz`);
  await symlink(source, file);
  return { folder, file };
}

describe('generated posters', () => {
  it('fits a CBZ first page into the thumbnail size, as a JPEG file under the data dir', async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    const book = await makeBook(opened.db, series, CBZ);

    const t = await svc.generateForBook(book);
    expect(t).toMatchObject({ type: 'GENERATED', selected: true, mediaType: 'image/jpeg', url: null });
    expect(Math.max(t!.width, t!.height)).toBe(300);
    expect(t!.height).toBe(300);
    expect(t!.width).toBe(Math.round((654 * 300) / 1040));
    const file = join(thumbnailFolder(dataDir, 'book', book), `${t!.id}.jpg`);
    expect(existsSync(file)).toBe(true);

    const poster = (await svc.bookPoster(book))!;
    expect(isJpeg(poster)).toBe(true);
    expect(dims(poster)).toEqual({ width: t!.width, height: t!.height });
    expect(t!.fileSize).toBe(poster.length);
  });

  it('never upscales a page smaller than the thumbnail size', async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    const book = await makeBook(opened.db, series, SMALL_CBZ);
    const t = (await svc.generateForBook(book))!;
    expect([t.width, t.height]).toEqual([114, 160]);
  });

  it("uses an EPUB's OPF cover", async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    const book = await makeBook(opened.db, series, EPUB);
    const t = (await svc.generateForBook(book))!;
    expect(t.height).toBe(300);
    expect(t.width).toBe(Math.round((461 * 300) / 616));
    expect(isJpeg((await svc.bookPoster(book))!)).toBe(true);
  });

  it('renders the first page of a PDF', async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    const book = await makeBook(opened.db, series, PDF);
    const t = (await svc.generateForBook(book))!;
    expect([t.width, t.height]).toEqual([300, 300]);
    expect(isJpeg((await svc.bookPoster(book))!)).toBe(true);
  }, 60_000);

  it('replaces the previous generated poster and deletes its file', async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    const book = await makeBook(opened.db, series, CBZ);
    const first = (await svc.generateForBook(book))!;
    const second = (await svc.generateForBook(book))!;
    const list = await svc.list('book', book);
    expect(list.map((t) => t.id)).toEqual([second.id]);
    expect(await readdir(thumbnailFolder(dataDir, 'book', book))).toEqual([`${second.id}.jpg`]);
    expect(first.id).not.toBe(second.id);
  });

  it('skips books that are not READY', async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    const book = await makeBook(opened.db, series, CBZ, { status: 'ERROR' });
    expect(await svc.generateForBook(book)).toBeNull();
    expect(await svc.bookPoster(book)).toBeNull();
    expect(await svc.generateForBook('unknown')).toBeNull();
  });

  it('announces ThumbnailBookAdded on the bus', async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    const book = await makeBook(opened.db, series, CBZ);
    await svc.generateForBook(book);
    expect(events).toContainEqual({
      type: 'ThumbnailBookAdded',
      data: { bookId: book, seriesId: series, selected: true },
    });
  });
});

describe('sidecar posters', () => {
  it('take precedence over the generated poster, whatever came first; only the first one is selected', async () => {
    const { folder, file } = await bookFolder('Tales 1');
    await writeFile(join(folder, 'Tales 1.png'), await solid(800, 1200, [255, 0, 0]));
    await writeFile(join(folder, 'tales 1-2.JPG'), await solid(400, 400, [0, 0, 255], 'jpeg'));
    await writeFile(join(folder, 'Tales 10.png'), await solid(400, 400, [0, 255, 0])); // another book's
    await writeFile(join(folder, 'Tales 1.txt'), 'not artwork');
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib, { folder });
    const book = await makeBook(opened.db, series, file);

    await svc.generateForBook(book);
    await svc.refreshBookLocalArtwork(book);
    let list = await svc.list('book', book);
    expect(list.map((t) => [t.type, t.selected])).toEqual([
      ['GENERATED', false],
      ['SIDECAR', true],
      ['SIDECAR', false],
    ]);
    const sidecar = list[1]!;
    expect(sidecar).toMatchObject({ mediaType: 'image/png', width: 800, height: 1200 });
    expect(sidecar.url).toMatch(/Tales%201\.png$/);

    // regenerating keeps the sidecar selected
    await svc.generateForBook(book);
    list = await svc.list('book', book);
    expect(list.find((t) => t.selected)?.id).toBe(sidecar.id);

    // the poster is the sidecar, resized to the thumbnail size, as JPEG
    const poster = (await svc.bookPoster(book))!;
    expect(isJpeg(poster)).toBe(true);
    expect(dims(poster)).toEqual({ width: 200, height: 300 });
    const [r, g, b] = await colour(poster);
    expect(r).toBeGreaterThan(240);
    expect(g! + b!).toBeLessThan(20);

    // a refresh replaces rows of the same file instead of adding duplicates
    await svc.refreshBookLocalArtwork(book);
    expect((await svc.list('book', book)).filter((t) => t.type === 'SIDECAR')).toHaveLength(2);
  });

  it('is dropped when its file disappears, and the next poster is selected', async () => {
    const { folder, file } = await bookFolder('Gone');
    await writeFile(join(folder, 'Gone.png'), await solid(300, 450, [255, 0, 0]));
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib, { folder });
    const book = await makeBook(opened.db, series, file);
    const generated = (await svc.generateForBook(book))!;
    await svc.refreshBookLocalArtwork(book);
    expect((await svc.list('book', book)).find((t) => t.selected)?.type).toBe('SIDECAR');

    await unlink(join(folder, 'Gone.png'));
    const poster = (await svc.bookPoster(book))!;
    expect(dims(poster)).toEqual({ width: generated.width, height: generated.height });
    expect((await svc.list('book', book)).map((t) => [t.id, t.selected])).toEqual([[generated.id, true]]);
  });

  it('follows a thumbnail size change on the next read', async () => {
    const { folder, file } = await bookFolder('Resize');
    await writeFile(join(folder, 'Resize.png'), await solid(800, 1200, [0, 0, 255]));
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib, { folder });
    const book = await makeBook(opened.db, series, file);
    await svc.refreshBookLocalArtwork(book);
    expect(dims((await svc.bookPoster(book))!)).toEqual({ width: 200, height: 300 });
    await settings.update({ thumbnailSize: 'MEDIUM' });
    expect(dims((await svc.bookPoster(book))!)).toEqual({ width: 400, height: 600 });
  });

  it('are not imported when the library does not import local artwork', async () => {
    const { folder, file } = await bookFolder('Off');
    await writeFile(join(folder, 'Off.png'), await solid(100, 100, [0, 0, 255]));
    const lib = await makeLibrary(opened.db, { importLocalArtwork: false });
    const series = await makeSeries(opened.db, lib, { folder });
    const book = await makeBook(opened.db, series, file);
    await svc.refreshBookLocalArtwork(book);
    expect(await svc.list('book', book)).toEqual([]);
  });

  it('for series: cover/folder/poster… files in the series folder, not for oneshots', async () => {
    const { folder } = await bookFolder('Any');
    await writeFile(join(folder, 'Folder.JPG'), await solid(600, 900, [0, 255, 0], 'jpeg'));
    await writeFile(join(folder, 'cover.png'), await solid(600, 900, [255, 0, 0]));
    await writeFile(join(folder, 'back.png'), await solid(600, 900, [0, 0, 255]));
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib, { folder });
    await svc.refreshSeriesLocalArtwork(series);
    const list = await svc.list('series', series);
    expect(list.map((t) => [t.url!.split('/').at(-1), t.selected])).toEqual([
      ['cover.png', true],
      ['Folder.JPG', false],
    ]);
    expect(events).toContainEqual({ type: 'ThumbnailSeriesAdded', data: { seriesId: series, selected: true } });

    const oneshot = await makeSeries(opened.db, lib, { folder, oneshot: true });
    await svc.refreshSeriesLocalArtwork(oneshot);
    expect(await svc.list('series', oneshot)).toEqual([]);
  });
});

describe('uploads, selection and deletion', () => {
  it('an upload selected becomes the poster; select another; deleting the selected one falls back by precedence', async () => {
    const { folder, file } = await bookFolder('Up');
    await writeFile(join(folder, 'Up.png'), await solid(300, 450, [0, 255, 0]));
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib, { folder });
    const book = await makeBook(opened.db, series, file);
    await svc.generateForBook(book); // the oldest poster
    await svc.refreshBookLocalArtwork(book);
    const sidecar = (await svc.list('book', book)).find((t) => t.type === 'SIDECAR')!;

    const red = await svc.upload('book', book, await solid(1600, 2000, [255, 0, 0]), true);
    expect(red).toMatchObject({
      type: 'USER_UPLOADED',
      selected: true,
      mediaType: 'image/jpeg',
      width: 960,
      height: 1200,
    });
    expect((await colour((await svc.bookPoster(book))!))[0]).toBeGreaterThan(240);

    const blue = await svc.upload('book', book, await solid(100, 100, [0, 0, 255]), false);
    expect(blue.selected).toBe(false);
    expect((await svc.list('book', book)).filter((t) => t.selected).map((t) => t.id)).toEqual([red.id]);

    events.length = 0;
    await svc.select('book', book, blue.id);
    expect((await svc.list('book', book)).filter((t) => t.selected).map((t) => t.id)).toEqual([blue.id]);
    expect(events).toEqual([{ type: 'ThumbnailBookAdded', data: { bookId: book, seriesId: series, selected: true } }]);
    expect((await colour((await svc.bookPoster(book))!))[2]).toBeGreaterThan(240);

    // deleting the selected upload: another upload outranks the sidecar and the generated poster
    events.length = 0;
    await svc.delete('book', book, blue.id);
    expect(events[0]).toEqual({
      type: 'ThumbnailBookDeleted',
      data: { bookId: book, seriesId: series, selected: true },
    });
    expect((await svc.list('book', book)).find((t) => t.selected)?.id).toBe(red.id);
    expect(existsSync(join(thumbnailFolder(dataDir, 'book', book), `${blue.id}.jpg`))).toBe(false);
    // then the sidecar outranks the (older) generated poster
    await svc.delete('book', book, red.id);
    expect((await svc.list('book', book)).find((t) => t.selected)?.id).toBe(sidecar.id);
  });

  it('refuses to delete posters that were not uploaded, and posters of another book', async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    const book = await makeBook(opened.db, series, CBZ);
    const other = await makeBook(opened.db, series, CBZ, { numberSort: 2 });
    const generated = (await svc.generateForBook(book))!;
    await expect(svc.delete('book', book, generated.id)).rejects.toMatchObject({
      status: 400,
      message: 'Only uploaded thumbnails can be deleted',
    });
    await expect(svc.select('book', other, generated.id)).rejects.toMatchObject({ status: 400 });
    await expect(svc.select('book', book, 'missing')).rejects.toMatchObject({ status: 404 });
  });

  it('refuses content that is not an image with 415, and series uploads for oneshots with 400', async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    const book = await makeBook(opened.db, series, CBZ);
    await expect(svc.upload('book', book, Buffer.from('%PDF-1.4 not a poster'), true)).rejects.toMatchObject({
      status: 415,
    });
    // claims to be a PNG but is not decodable
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);
    await expect(svc.upload('book', book, fake, true)).rejects.toMatchObject({ status: 415 });
    const oneshot = await makeSeries(opened.db, lib, { oneshot: true });
    await expect(svc.upload('series', oneshot, await solid(10, 10, [0, 0, 0]), true)).rejects.toMatchObject({
      status: 400,
    });
    expect(await svc.list('book', book)).toEqual([]);
  });
});

describe('series poster per user (library seriesCover)', () => {
  it('picks the book by FIRST, LAST, FIRST_UNREAD_OR_FIRST, FIRST_UNREAD_OR_LAST and the reader’s progress', async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    const b1 = await makeBook(opened.db, series, CBZ, { numberSort: 1 });
    const b2 = await makeBook(opened.db, series, CBZ, { numberSort: 2 });
    const b3 = await makeBook(opened.db, series, CBZ, { numberSort: 10 });
    const red = [255, 0, 0] as const;
    const green = [0, 255, 0] as const;
    const blue = [0, 0, 255] as const;
    for (const [book, rgb] of [
      [b1, red],
      [b3, blue],
      [b2, green],
    ] as const) {
      await svc.upload('book', book, await solid(30, 40, [...rgb]), true);
    }
    const alice = await makeUser(opened.db);
    const bob = await makeUser(opened.db);
    const posterOf = async (user: string) => {
      const [r, g, b] = await colour((await svc.seriesPoster(series, user))!);
      return r! > 200 ? 'b1' : g! > 200 ? 'b2' : b! > 200 ? 'b3' : '?';
    };

    expect(await posterOf(alice)).toBe('b1'); // FIRST
    await setSeriesCover(opened.db, lib, 'LAST');
    expect(await posterOf(alice)).toBe('b3');

    await setSeriesCover(opened.db, lib, 'FIRST_UNREAD_OR_FIRST');
    expect(await posterOf(alice)).toBe('b1');
    await setProgress(opened.db, alice, b1, true);
    await setProgress(opened.db, alice, b2, false); // in progress counts as unread
    expect(await posterOf(alice)).toBe('b2');
    expect(await posterOf(bob)).toBe('b1');
    await setProgress(opened.db, alice, b2, true);
    expect(await posterOf(alice)).toBe('b3');
    await setProgress(opened.db, alice, b3, true);
    expect(await posterOf(alice)).toBe('b1'); // all read → first

    await setSeriesCover(opened.db, lib, 'FIRST_UNREAD_OR_LAST');
    expect(await posterOf(alice)).toBe('b3'); // all read → last
    expect(await posterOf(bob)).toBe('b1');

    // a selected series poster wins over every book
    await svc.upload('series', series, await solid(30, 40, [255, 255, 255]), true);
    expect(await colour((await svc.seriesPoster(series, bob))!)).toEqual([255, 255, 255]);
  });

  it('is null when no book has a poster', async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    await makeBook(opened.db, series, CBZ);
    expect(await svc.seriesPoster(series, await makeUser(opened.db))).toBeNull();
    expect(await svc.seriesPoster('unknown', 'nobody')).toBeNull();
  });
});

describe('regeneration after a size change', () => {
  it('only bigger: books whose generated poster is smaller than the new size; all: every book', async () => {
    // a fresh library so that other tests' books do not count
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    await settings.update({ thumbnailSize: 'MEDIUM' });
    const atMedium = await makeBook(opened.db, series, CBZ);
    await svc.generateForBook(atMedium);
    await settings.update({ thumbnailSize: 'DEFAULT' });
    const atDefault = await makeBook(opened.db, series, CBZ);
    await svc.generateForBook(atDefault);
    const uploadedOnly = await makeBook(opened.db, series, CBZ);
    await svc.upload('book', uploadedOnly, await solid(50, 50, [0, 0, 0]), true);
    const deleted = await makeBook(opened.db, series, CBZ, { deleted: true });
    await svc.generateForBook(deleted);

    await settings.update({ thumbnailSize: 'MEDIUM' });
    const bigger = await svc.booksToRegenerate(true);
    expect(bigger).toContain(atDefault);
    expect(bigger).not.toContain(atMedium);
    expect(bigger).not.toContain(uploadedOnly);
    expect(bigger).not.toContain(deleted);

    const all = await svc.booksToRegenerate(false);
    expect(all).toEqual(expect.arrayContaining([atDefault, atMedium, uploadedOnly]));
    expect(all).not.toContain(deleted);

    const regenerated = (await svc.generateForBook(atDefault))!;
    expect([regenerated.width, regenerated.height]).toEqual([Math.round((654 * 600) / 1040), 600]);
    expect(await svc.booksToRegenerate(true)).not.toContain(atDefault);
    // the upload stays selected over a regenerated poster
    await svc.generateForBook(uploadedOnly);
    expect((await svc.list('book', uploadedOnly)).find((t) => t.selected)?.type).toBe('USER_UPLOADED');
  });
});

describe('deleteThumbnailFiles', () => {
  it('removes every poster file of hard-deleted books and series', async () => {
    const lib = await makeLibrary(opened.db);
    const series = await makeSeries(opened.db, lib);
    const book = await makeBook(opened.db, series, CBZ);
    await svc.generateForBook(book);
    await svc.upload('series', series, await solid(10, 10, [0, 0, 0]), true);
    expect(existsSync(thumbnailFolder(dataDir, 'book', book))).toBe(true);
    await deleteThumbnailFiles(dataDir, { bookIds: [book], seriesIds: [series] });
    expect(existsSync(thumbnailFolder(dataDir, 'book', book))).toBe(false);
    expect(existsSync(thumbnailFolder(dataDir, 'series', series))).toBe(false);
    await deleteThumbnailFiles(dataDir, { bookIds: [book] }); // twice is fine
  });
});
