import { collectAndReleaseMemory } from '../native-memory.js';
import { endIdleHashThread } from './hash.js';
import { dropAnalysisSpares } from './spare-buffers.js';

/**
 * Gives back at once what the analyses keep for the next book, where it would otherwise idle out within 5 s: their
 * spare buffers (two whole-file reads, the posters' first pages), dropped and collected (a full collection of the
 * main thread's heap, a few milliseconds, then a trim of glibc's arenas a second later), and the hashing thread.
 * Called before a task that the queue held back until no analysis was queued or running (issue 18: an import's first
 * barcode searches start the zxing thread, ~30 MB, and those seconds made the import's peak). True when there was
 * anything to give back.
 */
export async function releaseAnalysisMemory(): Promise<boolean> {
  const dropped = dropAnalysisSpares();
  // a thread that fails to end idles out as before
  const ended = await endIdleHashThread().catch(() => false);
  if (dropped === 0 && !ended) return false;
  void collectAndReleaseMemory();
  return true;
}
