import { readFileSync } from 'node:fs';

/** CPU time used so far by this process's main thread (the one running the server's event loop), in ms. */
export function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 1/100 s
}

/**
 * The longest turn of the event loop: in wall time, and in main-thread CPU time (the work done in it, which the
 * rest of a shared machine does not inflate). `stop()` counts the turn since the last tick too: work at the very
 * end of what was watched would otherwise go unseen.
 */
export function watchTurns() {
  let wall = performance.now();
  let cpu = mainThreadCpuMs();
  const longest = { wallMs: 0, workMs: 0 };
  const sample = () => {
    const nowWall = performance.now();
    const nowCpu = mainThreadCpuMs();
    const late = nowWall - wall - 10;
    longest.wallMs = Math.max(longest.wallMs, late);
    longest.workMs = Math.max(longest.workMs, Math.min(late, nowCpu - cpu));
    wall = nowWall;
    cpu = nowCpu;
  };
  const timer = setInterval(sample, 10);
  return {
    longest,
    stop: () => {
      clearInterval(timer);
      sample();
    },
  };
}
