/**
 * Creating, updating and deleting libraries (engine.md §1.2, §2.9, §12.1): validation, persistence,
 * the periodic-scan timer, the scans and jobs an option change calls for, and the events.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { BookRepository, LibraryRepository, SeriesRepository, UnitOfWork } from '../domain/ports.js';
import { QuireError, badRequest, notFound } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import {
  libraryOptions,
  libraryUpdateNeedsScan,
  normalizeOneshotsDirectory,
  refusedRootReason,
  rootsOverlap,
  type Library,
  type LibraryOptions,
} from '../domain/library.js';
import type { EventBus } from '../events/bus.js';
import { BOOK_METADATA_PATCH_CAPABILITIES, PRIORITY, type Task } from '../tasks/definitions.js';
import type { TaskEmitter } from '../tasks/emitter.js';
import type { Scheduler } from '../tasks/scheduler.js';
import { deleteThumbnailFiles } from './thumbnails.js';

/** What a caller may set; omitted = default (create) or unchanged (update). */
export type LibraryInput = { name?: string; root?: string } & {
  [K in keyof LibraryOptions]?: LibraryOptions[K] | null;
};

export interface LibraryLifecycleDeps {
  uow: UnitOfWork;
  libraries: LibraryRepository;
  series: SeriesRepository;
  books: BookRepository;
  events: EventBus;
  tasks: TaskEmitter;
  scheduler: Pick<Scheduler, 'schedule' | 'unschedule'>;
  /** Poster files live under `<dataDir>/thumbnails`; no library may be rooted in or around it. */
  dataDir: string;
  now?: () => Date;
}

/** The library root is missing or not a directory (ERR_1016). */
const notADirectory = () => new QuireError(400, 'ERR_1016');

export class LibraryLifecycle {
  private readonly now: () => Date;

  constructor(private readonly d: LibraryLifecycleDeps) {
    this.now = d.now ?? (() => new Date());
  }

  async create(input: LibraryInput & { name: string; root: string }): Promise<Library> {
    const library: Library = {
      id: newId(),
      name: input.name,
      root: input.root,
      unavailableDate: null,
      ...libraryOptions(definedOptions(input)),
    };
    library.root = await this.validate(library);
    await this.d.libraries.insert(library, this.now());
    this.d.scheduler.schedule(library);
    await this.d.tasks.submit([{ kind: 'ScanLibrary', libraryId: library.id, deep: false }], PRIORITY.DEFAULT);
    this.d.events.emit({ type: 'LibraryAdded', data: { libraryId: library.id } });
    return library;
  }

  /** PATCH semantics: omitted or null = unchanged, except exclusions (null ⇒ []) and one-shots (null/blank ⇒ none). */
  async update(id: string, input: LibraryInput): Promise<Library> {
    const before = await this.d.libraries.find(id);
    if (!before) throw notFound();
    const patch = definedOptions(input);
    if (input.scanDirectoryExclusions === null) patch.scanDirectoryExclusions = [];
    if ('oneshotsDirectory' in input) patch.oneshotsDirectory = normalizeOneshotsDirectory(input.oneshotsDirectory);
    const after: Library = {
      ...before,
      name: input.name ?? before.name,
      root: input.root ?? before.root,
      ...libraryOptions({ ...pickOptions(before), ...patch }),
    };
    after.root = await this.validate(after);
    await this.d.libraries.update(after, this.now());

    if (before.scanInterval !== after.scanInterval) this.d.scheduler.schedule(after);
    if (libraryUpdateNeedsScan(before, after))
      await this.d.tasks.submit([{ kind: 'ScanLibrary', libraryId: id, deep: false }], PRIORITY.DEFAULT);
    await this.queueEnabledJobs(before, after);
    this.d.events.emit({ type: 'LibraryChanged', data: { libraryId: id } });
    return after;
  }

  /** POST /libraries/{id}/scan: a scan at the highest priority (api.md §3.1). */
  async scan(id: string, deep: boolean): Promise<void> {
    const library = await this.existing(id);
    await this.d.tasks.submit([{ kind: 'ScanLibrary', libraryId: library.id, deep }], PRIORITY.HIGHEST);
  }

  /** POST /libraries/{id}/analyze: every book analysed again. */
  async analyze(id: string): Promise<void> {
    const library = await this.existing(id);
    const books = await this.d.books.findByLibrary(library.id);
    await this.d.tasks.submit(
      books.map((b): Task => ({ kind: 'AnalyzeBook', bookId: b.id, seriesId: b.seriesId })),
      PRIORITY.HIGH,
    );
  }

  /** POST /libraries/{id}/metadata/refresh: every book's metadata and local artwork, every series' artwork. */
  async refreshMetadata(id: string): Promise<void> {
    const library = await this.existing(id);
    const [books, series] = await Promise.all([
      this.d.books.findByLibrary(library.id),
      this.d.series.findByLibrary(library.id),
    ]);
    const work: Task[] = [];
    for (const b of books) {
      work.push({
        kind: 'RefreshBookMetadata',
        bookId: b.id,
        seriesId: b.seriesId,
        capabilities: [...BOOK_METADATA_PATCH_CAPABILITIES],
      });
      work.push({ kind: 'RefreshBookLocalArtwork', bookId: b.id });
    }
    for (const s of series) work.push({ kind: 'RefreshSeriesLocalArtwork', seriesId: s.id });
    await this.d.tasks.submit(work, PRIORITY.HIGH);
  }

  /** POST /libraries/{id}/empty-trash. */
  async emptyTrash(id: string): Promise<void> {
    const library = await this.existing(id);
    await this.d.tasks.submit([{ kind: 'EmptyTrash', libraryId: library.id }], PRIORITY.HIGH);
  }

  private async existing(id: string): Promise<Library> {
    const library = await this.d.libraries.find(id);
    if (!library) throw notFound();
    return library;
  }

  /**
   * Removes the library and everything of it from the database (files on disk are never touched), and
   * the stored thumbnail files of its series and books.
   */
  async delete(id: string): Promise<void> {
    const library = await this.d.libraries.find(id);
    if (!library) throw notFound();
    const [series, books] = await Promise.all([this.d.series.findByLibrary(id), this.d.books.findByLibrary(id)]);
    this.d.scheduler.unschedule(id);
    await this.d.uow.run(({ libraries }) => libraries.delete(id));
    await deleteThumbnailFiles(this.d.dataDir, { bookIds: books.map((b) => b.id), seriesIds: series.map((s) => s.id) });
    for (const b of books)
      this.d.events.emit({ type: 'BookDeleted', data: { bookId: b.id, seriesId: b.seriesId, libraryId: id } });
    for (const s of series) this.d.events.emit({ type: 'SeriesDeleted', data: { seriesId: s.id, libraryId: id } });
    this.d.events.emit({ type: 'LibraryDeleted', data: { libraryId: id } });
  }

  /**
   * §1.2: the root exists and is a directory (ERR_1016), the name is unique (exact match), and the root is
   * neither inside nor around another library's root (ERR_1017). Quire also refuses `/`, system folders and
   * its own data folder (domain/library.ts `refusedRootReason`). Roots are compared by their real paths, so a
   * link cannot smuggle one root into another. Returns the normalised root (as given, not resolved: a library
   * rooted at a link follows the link if it is later pointed elsewhere).
   */
  private async validate(library: Library): Promise<string> {
    if (!isAbsolute(library.root)) throw notADirectory();
    const root = resolve(library.root);
    let real: string;
    try {
      if (!(await stat(root)).isDirectory()) throw notADirectory();
      real = await realpath(root);
    } catch (err) {
      if (err instanceof QuireError) throw err;
      throw notADirectory();
    }
    const refused = refusedRootReason(real, await realOrResolved(this.d.dataDir));
    if (refused) throw badRequest(refused);
    const others = (await this.d.libraries.list()).filter((l) => l.id !== library.id);
    if (others.some((l) => l.name === library.name)) throw badRequest('Library name already exists');
    for (const other of others) {
      if (rootsOverlap(await realOrResolved(other.root), real) || rootsOverlap(other.root, root))
        throw new QuireError(400, 'ERR_1017');
    }
    return root;
  }

  /** §2.9: jobs for options switched from false to true, at LOWEST priority. */
  private async queueEnabledJobs(before: Library, after: Library) {
    const enabled = (k: 'hashFiles' | 'hashKoreader' | 'hashPages' | 'repairExtensions' | 'convertToCbz') =>
      !before[k] && after[k];
    const tasks: Task[] = [];
    if (enabled('hashFiles'))
      for (const bookId of await this.d.books.findUnhashed(after.id)) tasks.push({ kind: 'HashBook', bookId });
    if (enabled('hashKoreader') || enabled('repairExtensions')) {
      const live = (await this.d.books.findByLibrary(after.id)).filter((b) => !b.deletedDate);
      for (const b of live) {
        if (enabled('hashKoreader')) tasks.push({ kind: 'HashBookKoreader', bookId: b.id });
        if (enabled('repairExtensions')) tasks.push({ kind: 'RepairExtension', bookId: b.id, seriesId: b.seriesId });
      }
    }
    if (enabled('hashPages')) tasks.push({ kind: 'FindBooksWithMissingPageHash', libraryId: after.id });
    if (enabled('convertToCbz')) tasks.push({ kind: 'FindBooksToConvert', libraryId: after.id });
    await this.d.tasks.submit(tasks, PRIORITY.LOWEST);
  }
}

const OPTION_KEYS = Object.keys(libraryOptions()) as (keyof LibraryOptions)[];

/** The options present and non-null in an input. */
function definedOptions(input: LibraryInput): Partial<LibraryOptions> {
  const out: Record<string, unknown> = {};
  for (const k of OPTION_KEYS) if (input[k] !== undefined && input[k] !== null) out[k] = input[k];
  if (typeof out.scanInterval === 'string') out.scanInterval = out.scanInterval.toUpperCase();
  if (typeof out.seriesCover === 'string') out.seriesCover = out.seriesCover.toUpperCase();
  return out as Partial<LibraryOptions>;
}

function pickOptions(library: Library): LibraryOptions {
  return Object.fromEntries(OPTION_KEYS.map((k) => [k, library[k]])) as unknown as LibraryOptions;
}

/** The real path of a folder; for one that is gone (an unavailable library), the path as written. */
async function realOrResolved(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}
