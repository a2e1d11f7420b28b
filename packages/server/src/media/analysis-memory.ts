import { endIdleHashThread } from './hash.js';
import { dropAnalysisSpares } from './spare-buffers.js';

/**
 * Gives back at once what the analyses keep for the next book, where it would otherwise idle out within 5 s: their
 * spare buffers (two whole-file reads, the posters' first pages), dropped, and the hashing thread, ended. Called
 * before a task that the queue held back until no analysis was queued or running (issue 18: an import's first
 * barcode searches start the zxing thread, ~30 MB, and those seconds made the import's peak). True when there was
 * anything to give back: the caller then has the dropped buffers collected and the memory returned
 * (`collectAndReleaseMemory` in native-memory.ts, a full collection of the main thread's heap, a few milliseconds,
 * then a trim of glibc's arenas a second later).
 */
export async function releaseAnalysisMemory(): Promise<boolean> {
  const dropped = dropAnalysisSpares();
  // a thread that fails to end idles out as before
  const ended = await endIdleHashThread().catch(() => false);
  return dropped > 0 || ended;
}
