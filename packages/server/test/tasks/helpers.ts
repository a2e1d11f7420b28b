import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type OpenedDatabase } from '../../src/db/database.js';
import { databaseOf, dropDatabaseOf } from '../support/postgres.js';
import { TASK_KINDS, type Task } from '../../src/tasks/definitions.js';
import type { Handlers, TaskContext, TaskLogger } from '../../src/tasks/handlers.js';

/** A fresh data dir with a real, migrated database (support/postgres.ts); `reopen` opens the same one again. */
export async function tempDatabase() {
  const dir = await mkdtemp(join(tmpdir(), 'quire-tasks-'));
  const file = await databaseOf(dir);
  const opened: OpenedDatabase[] = [];
  const open = async () => {
    const d = await openDatabase(file);
    opened.push(d);
    return d;
  };
  const first = await open();
  return {
    db: first.db,
    first,
    file,
    reopen: open,
    async cleanup() {
      for (const d of opened) await d.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
      await dropDatabaseOf(dir);
    },
  };
}

/** Collects log lines; fails nothing by itself. */
export function recordingLogger() {
  const lines: { level: string; obj: object; msg: string }[] = [];
  const at = (level: string) => (obj: object, msg: string) => void lines.push({ level, obj, msg });
  const logger: TaskLogger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

/** Polls `check` until it returns true (short steps, capped). */
export async function waitFor(check: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 5_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A promise with its resolver, to hold a handler until the test lets it go. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

/**
 * A full handler table for tests of the queue machinery: the handlers given, and `fallback` for every other
 * kind. Production code builds its table with `createHandlers`, which has no such gap to fill.
 */
export function handlersFor(
  fallback: (task: Task, ctx: TaskContext) => Promise<void>,
  some: Partial<Handlers> = {},
): Handlers {
  return Object.fromEntries(TASK_KINDS.map((kind) => [kind, some[kind] ?? fallback])) as Handlers;
}
