import { TASK_KINDS, type Priority, type Task, type TaskKind, type TaskOf } from './definitions.js';

/** What the worker pool logs through; a pino logger fits. */
export interface TaskLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Given to every handler: the priority it runs at and a way to queue follow-ups (engine.md §8.3). */
export interface TaskContext {
  /** Follow-ups use `priority + 1` or `priority - 1`, as in Komga's TaskHandler. */
  priority: Priority;
  submit(tasks: readonly Task[], priority: Priority): Promise<void>;
}

export type TaskHandler<K extends TaskKind> = (task: TaskOf<K>, ctx: TaskContext) => Promise<void>;

/** One handler per kind: a kind without a handler does not compile. */
export type Handlers = { [K in TaskKind]: TaskHandler<K> };

/** Runs `task` with its own handler: the one place where the union is narrowed to a kind. */
export function runTask(handlers: Handlers, task: Task, ctx: TaskContext): Promise<void> {
  const handler = handlers[task.kind] as (task: Task, ctx: TaskContext) => Promise<void>;
  return handler(task, ctx);
}

/** Handlers for the kinds given, `fallback` for the rest (tests, and wiring the engine kind by kind). */
export function completeHandlers(
  some: Partial<Handlers>,
  fallback: (task: Task, ctx: TaskContext) => Promise<void>,
): Handlers {
  const all = Object.fromEntries(TASK_KINDS.map((kind) => [kind, some[kind] ?? fallback]));
  return all as Handlers;
}

/**
 * The services the handlers call. Empty until the library engine lands: each service (scanner, book
 * lifecycle, thumbnails, metadata, hasher…) is added here and called from its handler below.
 */
export interface TaskServices {
  logger: TaskLogger;
}

/**
 * The handler table: from a task to a service call and its follow-up tasks (Komga's TaskHandler). Until a
 * kind's service exists its handler logs and completes, so a queued task is consumed, not stuck.
 */
export function createHandlers(services: TaskServices): Handlers {
  const notYet = async (task: Task) => {
    services.logger.warn({ task }, `No handler for ${task.kind} yet; task skipped`);
  };
  return completeHandlers({}, notYet);
}
