import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  collectAndReleaseMemory,
  limitMallocArenas,
  memoryReleaser,
  releaseFreedMemory,
} from '../src/native-memory.js';

/*
 * Issue 18: after an import the server gives the memory glibc holds free back to the system (malloc_trim), once the
 * tasks have stopped and at most every few seconds while they run.
 */
afterEach(() => {
  vi.useRealTimers();
});

describe('freed native memory given back', () => {
  it('calls malloc_trim on glibc Linux (this machine), after a full collection when settling', async () => {
    expect(await releaseFreedMemory()).toBe(process.platform === 'linux');
    expect(await collectAndReleaseMemory()).toBe(process.platform === 'linux');
  });

  it("limits glibc's malloc arenas and maps large blocks alone as MALLOC_ARENA_MAX and MALLOC_MMAP_THRESHOLD_ would, unless the environment sets them", async () => {
    const fromEnvironment =
      process.env.MALLOC_ARENA_MAX !== undefined && process.env.MALLOC_MMAP_THRESHOLD_ !== undefined;
    expect(await limitMallocArenas()).toBe(process.platform === 'linux' && !fromEnvironment);
    try {
      vi.stubEnv('MALLOC_ARENA_MAX', '4');
      expect(await limitMallocArenas()).toBe(process.platform === 'linux'); // the threshold is still set
      vi.stubEnv('MALLOC_MMAP_THRESHOLD_', '131072');
      expect(await limitMallocArenas()).toBe(false);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('with a full collection, shortly after the last piece of work and once more later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const [release, settle] = [vi.fn(), vi.fn()];
    const releaser = memoryReleaser({ quietMs: 2_000, busyMs: 10_000, lateMs: 35_000, release, settle });
    releaser.workDone();
    vi.advanceTimersByTime(1_000);
    releaser.workDone();
    vi.advanceTimersByTime(1_999);
    expect(settle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(settle).toHaveBeenCalledTimes(1));
    vi.advanceTimersByTime(32_999); // and once more when idle worker threads have ended
    expect(settle).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(settle).toHaveBeenCalledTimes(2));
    vi.advanceTimersByTime(120_000);
    expect(settle).toHaveBeenCalledTimes(2);
    expect(release).not.toHaveBeenCalled();
  });

  it('with a full collection after a task once garbage buffers have grown by garbageBytes', () => {
    const collect = vi.fn();
    // the buffers in use at each call: 10 MB alive at the start
    const inUse = [10, 20, 30, 45, 12, 40, 8, 30, 41].map((mb) => mb * 2 ** 20);
    let i = 0;
    const buffersInUse = () => inUse[i++]!;
    const releaser = memoryReleaser({ garbageBytes: 32 * 2 ** 20, buffersInUse, collect, release: vi.fn() });
    releaser.workDone(); // 20
    releaser.workDone(); // 30
    expect(collect).not.toHaveBeenCalled();
    releaser.workDone(); // 45: 35 MB over the 10 alive; 12 after the collection
    expect(collect).toHaveBeenCalledTimes(1);
    releaser.workDone(); // 40
    releaser.workDone(); // 8: V8 collected by itself
    releaser.workDone(); // 30
    expect(collect).toHaveBeenCalledTimes(1);
    releaser.workDone(); // 41: 33 MB over the 8 alive
    expect(collect).toHaveBeenCalledTimes(2);
    releaser.stop();
  });

  it('and at most every busyMs while work goes on without a pause', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const [release, settle] = [vi.fn(), vi.fn()];
    const releaser = memoryReleaser({ quietMs: 2_000, busyMs: 10_000, lateMs: 35_000, release, settle });
    for (let t = 0; t < 25_000; t += 500) {
      releaser.workDone();
      vi.advanceTimersByTime(500);
    }
    await vi.waitFor(() => expect(release).toHaveBeenCalledTimes(2)); // at 10 s and 20 s
    releaser.stop();
    vi.advanceTimersByTime(60_000);
    expect(release).toHaveBeenCalledTimes(2);
    expect(settle).not.toHaveBeenCalled();
  });
});
