/**
 * EPUB analysis on a worker thread (the pool in `analysis-pool.ts`): the OPF, navigation, spine and positions of a
 * big book take seconds of CPU (a 50,000-item spine took over a minute), which must not block the event loop.
 */
import { MediaLimitError } from '../limits.js';
import { MediaError } from '../types.js';
import { serve } from '../worker-thread.js';
import { analyzeEpub } from './analyze.js';
import type { EpubAnalysisCall, EpubAnalysisAnswer } from './analysis-pool.js';

export default serve<EpubAnalysisCall, EpubAnalysisAnswer>(async ({ file, analyzeDimensions }) => {
  try {
    return { ok: true, analysis: await analyzeEpub(file, { analyzeDimensions }) };
  } catch (e) {
    // an error's class and code do not survive the trip between threads
    if (e instanceof MediaLimitError) return { ok: false, code: e.code, message: e.message, limit: e.reason };
    if (e instanceof MediaError) return { ok: false, code: e.code, message: e.message };
    return { ok: false, code: null, message: e instanceof Error ? e.message : String(e) };
  }
});
