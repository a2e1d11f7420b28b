import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskRepository } from '../../src/db/repositories/tasks.js';
import { PRIORITY, type Task } from '../../src/tasks/definitions.js';
import { createTaskQueue, type TaskQueue } from '../../src/tasks/queue.js';
import { recordingLogger, tempDatabase } from './helpers.js';

const analyze = (bookId: string, seriesId = `s-${bookId}`): Task => ({ kind: 'AnalyzeBook', bookId, seriesId });
const thumb = (bookId: string): Task => ({ kind: 'GenerateBookThumbnail', bookId });

describe('TaskQueue over SQLite', () => {
  let data: Awaited<ReturnType<typeof tempDatabase>>;
  let queue: TaskQueue;
  let rows: TaskRepository;
  const log = recordingLogger();
  beforeEach(async () => {
    data = await tempDatabase();
    log.lines.length = 0;
    queue = createTaskQueue(data.db, { logger: log.logger });
    rows = new TaskRepository(data.db);
  });
  afterEach(() => data.cleanup());

  async function drain(owner = 'w') {
    const taken: string[] = [];
    for (let q = await queue.take(owner); q; q = await queue.take(owner)) {
      taken.push(q.uniqueId);
      await queue.done(q.uniqueId);
    }
    return taken;
  }

  it('hands out tasks by priority, highest first, then in submission order', async () => {
    await queue.submit([thumb('a'), thumb('b')], PRIORITY.LOW);
    await queue.submit([thumb('c')], PRIORITY.HIGHEST);
    await queue.submit([thumb('d'), thumb('e')], PRIORITY.DEFAULT);
    await queue.submit([thumb('f')], PRIORITY.HIGHEST + 1);
    await queue.submit([thumb('g')], PRIORITY.LOWEST - 1);
    expect(await drain()).toEqual(['f', 'c', 'd', 'e', 'a', 'b', 'g'].map((b) => `GENERATE_BOOK_THUMBNAIL_${b}`));
  });

  it('keeps one row per unique id: a re-submit updates priority and payload and moves it back', async () => {
    const refresh = (caps: ('TITLE' | 'NUMBER' | 'NUMBER_SORT')[]): Task => ({
      kind: 'RefreshBookMetadata',
      bookId: 'b1',
      seriesId: 's1',
      capabilities: caps,
    });
    await queue.submit([refresh(['TITLE'])], PRIORITY.HIGH);
    await queue.submit([thumb('x')], PRIORITY.DEFAULT);
    await queue.submit([refresh(['NUMBER', 'NUMBER_SORT'])], PRIORITY.DEFAULT);

    const all = await rows.findAll();
    expect(all).toHaveLength(2);
    const row = all.find((r) => r.uniqueId === 'REFRESH_BOOK_METADATA_b1')!;
    expect(row.priority).toBe(PRIORITY.DEFAULT);
    expect(row.groupId).toBe('s1');
    expect(JSON.parse(row.payload)).toMatchObject({ capabilities: ['NUMBER', 'NUMBER_SORT'] });
    // Same priority as the thumbnail now, and submitted after it.
    const first = await queue.take('w');
    expect(first?.uniqueId).toBe('GENERATE_BOOK_THUMBNAIL_x');
    const second = await queue.take('w');
    expect(second?.task).toEqual(refresh(['NUMBER', 'NUMBER_SORT']));
    expect(await queue.counts()).toEqual({
      count: 2,
      countByType: { GenerateBookThumbnail: 1, RefreshBookMetadata: 1 },
    });
  });

  it('keeps the last of duplicates inside one submit', async () => {
    await queue.submit([
      { kind: 'ScanLibrary', libraryId: 'L', deep: false },
      thumb('z'),
      { kind: 'ScanLibrary', libraryId: 'L', deep: false },
    ]);
    expect((await rows.findAll()).map((r) => r.uniqueId)).toEqual([
      'GENERATE_BOOK_THUMBNAIL_z',
      'SCAN_LIBRARY_L_DEEP_false',
    ]);
  });

  it('never hands out a task whose group has one running, but other groups go ahead', async () => {
    await queue.submit([analyze('1', 'A'), analyze('2', 'A'), analyze('3', 'B'), thumb('free')]);
    const a1 = await queue.take('w1');
    expect(a1?.uniqueId).toBe('ANALYZE_BOOK_1');
    const next = await queue.take('w2');
    expect(next?.uniqueId).toBe('ANALYZE_BOOK_3');
    const third = await queue.take('w3');
    expect(third?.uniqueId).toBe('GENERATE_BOOK_THUMBNAIL_free');
    expect(await queue.take('w4')).toBeUndefined(); // ANALYZE_BOOK_2 waits for its series
    await queue.done(a1!.uniqueId);
    expect((await queue.take('w4'))?.uniqueId).toBe('ANALYZE_BOOK_2');
  });

  it('runs a task again when it is re-submitted while running, with the newest payload', async () => {
    await queue.submit([{ kind: 'RefreshBookMetadata', bookId: 'b', seriesId: 's', capabilities: ['TITLE'] }]);
    const running = await queue.take('w');
    await queue.submit(
      [{ kind: 'RefreshBookMetadata', bookId: 'b', seriesId: 's', capabilities: ['ISBN'] }],
      PRIORITY.HIGH,
    );
    // Still running: nobody else may take it.
    expect(await queue.take('other')).toBeUndefined();
    await queue.done(running!.uniqueId);
    const again = await queue.take('w');
    expect(again?.task).toMatchObject({ capabilities: ['ISBN'] });
    expect(again?.priority).toBe(PRIORITY.HIGH);
    await queue.done(again!.uniqueId);
    expect(await queue.counts()).toEqual({ count: 0, countByType: {} });
  });

  it('cancels only the tasks no runner has taken, and a pending re-run', async () => {
    await queue.submit([thumb('1'), thumb('2'), thumb('3'), thumb('4')]);
    const running = await queue.take('w');
    const rerun = await queue.take('w2');
    await queue.submit([rerun!.task]);
    expect(await queue.cancelQueued()).toBe(3); // two queued + one pending re-run
    expect((await rows.findAll()).map((r) => [r.uniqueId, r.owner, r.runAgain])).toEqual([
      [running!.uniqueId, 'w', false],
      [rerun!.uniqueId, 'w2', false],
    ]);
    await queue.done(rerun!.uniqueId);
    expect(await queue.counts()).toEqual({ count: 1, countByType: { GenerateBookThumbnail: 1 } });
    expect(await queue.cancelQueued()).toBe(0);
  });

  it('gives back, at start-up, the tasks a dead process had taken', async () => {
    await queue.submit([analyze('1', 'A'), analyze('2', 'A')]);
    await queue.take('dead-1');
    expect(await queue.take('w')).toBeUndefined();
    expect(await queue.reclaimOrphans()).toBe(1);
    expect((await queue.take('w'))?.uniqueId).toBe('ANALYZE_BOOK_1');
  });

  it('drops a stored task of an unknown kind instead of handing it out', async () => {
    await rows.upsert(
      [{ uniqueId: 'FUTURE', kind: 'FromTheFuture', priority: 9, groupId: null, payload: '{"kind":"FromTheFuture"}' }],
      new Date().toISOString(),
    );
    await queue.submit([thumb('ok')]);
    expect((await queue.take('w'))?.uniqueId).toBe('GENERATE_BOOK_THUMBNAIL_ok');
    expect((await rows.findAll()).map((r) => r.uniqueId)).toEqual(['GENERATE_BOOK_THUMBNAIL_ok']);
    expect(log.lines.map((l) => [l.level, l.obj])).toEqual([['warn', { task: 'FUTURE', kind: 'FromTheFuture' }]]);
  });

  it('tells listeners about each change', async () => {
    const seen: string[] = [];
    queue.onChange((c) => seen.push(c));
    await queue.submit([thumb('1')]);
    const t = await queue.take('w');
    await queue.done(t!.uniqueId);
    await queue.cancelQueued();
    expect(seen).toEqual(['submitted', 'done', 'cancelled']);
  });
});
