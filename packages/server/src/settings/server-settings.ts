import { availableParallelism, totalmem } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { ServerSettingsRepository } from '../domain/ports.js';
import {
  THUMBNAIL_SIZES,
  type ServerSettingsValues,
  type SettingsStore,
  type ThumbnailSize,
} from '../domain/settings.js';

/** Table keys, as Komga names them (engine.md §1.3). */
const KEYS = {
  deleteEmptyCollections: 'DELETE_EMPTY_COLLECTIONS',
  deleteEmptyReadLists: 'DELETE_EMPTY_READLISTS',
  rememberMeDurationDays: 'REMEMBER_ME_DURATION',
  rememberMeKey: 'REMEMBER_ME_KEY',
  taskPoolSize: 'TASK_POOL_SIZE',
  thumbnailSize: 'THUMBNAIL_SIZE',
  serverPort: 'SERVER_PORT',
  serverContextPath: 'SERVER_CONTEXT_PATH',
  koboPort: 'KOBO_PORT',
  koboProxy: 'KOBO_PROXY',
  kepubifyPath: 'KEPUBIFY_PATH',
} as const satisfies Record<keyof ServerSettingsValues, string>;

/** Memory a runner may need at worst: a decode at the pixel limit, an archive entry, a PDF render. */
const MEMORY_PER_RUNNER = 1024 ** 3;
const MAX_DEFAULT_RUNNERS = 4;

/**
 * The task pool's size when no one has set it: one runner per core (at most 4) where the machine has 1 GiB of
 * memory for each, else one (Komga's default). A runner spends much of a task waiting on file reads, libvips and
 * worker threads; a second one keeps the other core busy meanwhile (issue 18: an import on 2 cores).
 */
export function defaultTaskPoolSize(cores = availableParallelism(), memoryBytes = totalmem()): number {
  return Math.max(1, Math.min(cores, MAX_DEFAULT_RUNNERS, Math.floor(memoryBytes / MEMORY_PER_RUNNER)));
}

export const DEFAULT_SETTINGS: Omit<ServerSettingsValues, 'rememberMeKey'> = {
  deleteEmptyCollections: true,
  deleteEmptyReadLists: true,
  rememberMeDurationDays: 365,
  taskPoolSize: defaultTaskPoolSize(),
  thumbnailSize: 'DEFAULT',
  serverPort: null,
  serverContextPath: null,
  koboPort: null,
  koboProxy: false,
  kepubifyPath: null,
};

/** A fresh secret for signing remember-me cookies. */
export const newRememberMeKey = () => randomBytes(32).toString('base64url');

/**
 * Server settings over the `server_settings` table. Every `get()` reads the database (no cache), so a
 * change made by another instance sharing the database is seen at once. The remember-me key is generated
 * and stored the first time it is needed.
 */
export function createSettingsStore(repository: ServerSettingsRepository): SettingsStore {
  async function get(): Promise<ServerSettingsValues> {
    const rows = await repository.findAll();
    const raw = (k: keyof ServerSettingsValues) => rows.get(KEYS[k]) ?? null;
    const rememberMeKey =
      raw('rememberMeKey') ?? (await repository.insertIfAbsent(KEYS.rememberMeKey, newRememberMeKey()));
    return {
      deleteEmptyCollections: bool(raw('deleteEmptyCollections'), DEFAULT_SETTINGS.deleteEmptyCollections),
      deleteEmptyReadLists: bool(raw('deleteEmptyReadLists'), DEFAULT_SETTINGS.deleteEmptyReadLists),
      rememberMeDurationDays: int(raw('rememberMeDurationDays')) ?? DEFAULT_SETTINGS.rememberMeDurationDays,
      rememberMeKey,
      taskPoolSize: int(raw('taskPoolSize')) ?? DEFAULT_SETTINGS.taskPoolSize,
      thumbnailSize: thumbnailSize(raw('thumbnailSize')),
      serverPort: int(raw('serverPort')),
      serverContextPath: raw('serverContextPath') || null,
      koboPort: int(raw('koboPort')),
      koboProxy: bool(raw('koboProxy'), DEFAULT_SETTINGS.koboProxy),
      kepubifyPath: raw('kepubifyPath') || null,
    };
  }

  return {
    get,
    async update(patch) {
      const entries: Record<string, string | null> = {};
      for (const [field, value] of Object.entries(patch) as [keyof ServerSettingsValues, unknown][]) {
        if (value === undefined || !Object.hasOwn(KEYS, field)) continue;
        entries[KEYS[field]] = value === null ? null : String(value);
      }
      await repository.save(entries);
      return get();
    },
  };
}

function bool(value: string | null, fallback: boolean): boolean {
  return value === null ? fallback : value === 'true';
}

function int(value: string | null): number | null {
  if (value === null) return null;
  const n = Number(value);
  return Number.isInteger(n) ? n : null;
}

function thumbnailSize(value: string | null): ThumbnailSize {
  return value !== null && Object.hasOwn(THUMBNAIL_SIZES, value)
    ? (value as ThumbnailSize)
    : DEFAULT_SETTINGS.thumbnailSize;
}
