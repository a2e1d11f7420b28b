import { MediaLimitError } from '../limits.js';
import { MediaError } from '../types.js';
import { WorkerPool } from '../workers.js';
import type { EpubAnalysis } from './analyze.js';

export interface EpubAnalysisCall {
  file: string;
  analyzeDimensions: boolean;
}

export type EpubAnalysisAnswer =
  | { ok: true; analysis: EpubAnalysis }
  /** `limit`: the reason of a MediaLimitError (a book over a limit, whose comment says which). */
  | { ok: false; code: string | null; message: string; limit?: string };

/** An analysis that takes longer than this is given up and its thread ended. */
const TIMEOUT_MS = 300_000;

/**
 * One thread: analyses are queued by the task pool anyway, and a second thread would double the memory of the
 * biggest books' XML trees (at most 16 MiB of XML each, ~10 times that as a tree). Its JavaScript heap is bounded
 * above that; it ends after 30 s without work.
 */
const pool = new WorkerPool<EpubAnalysisCall | null, EpubAnalysisAnswer>({
  module: new URL('./analyze-worker.js', import.meta.url),
  threads: 1,
  idleTimeoutMs: 30_000,
  resourceLimits: { maxOldGenerationSizeMb: 512 },
});

/** {@link analyzeEpub}, run on a worker thread: same result, same errors (their codes kept). */
export async function analyzeEpubOffThread(
  file: string,
  opts: { analyzeDimensions?: boolean } = {},
): Promise<EpubAnalysis> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  let res: EpubAnalysisAnswer;
  try {
    res = (await pool.run({ file, analyzeDimensions: opts.analyzeDimensions ?? false }, { signal: timeout }))!;
  } catch (e) {
    if (timeout.aborted) throw new MediaError('ERR_1005', `EPUB analysis stopped after ${TIMEOUT_MS / 1000} s`);
    throw new MediaError('ERR_1005', `EPUB analysis failed: ${(e as Error).message}`);
  }
  if (res.ok) return res.analysis;
  if (res.limit !== undefined) throw new MediaLimitError(res.limit);
  if (res.code) throw new MediaError(res.code, res.message);
  throw new Error(res.message);
}
