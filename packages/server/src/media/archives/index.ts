import type { ContainerReader } from '../types.js';
import { rarReader } from './rar.js';
import { sevenZipReader } from './sevenzip.js';
import { tarReader } from './tar.js';
import { zipReader } from './zip.js';

export { rarReader, sevenZipReader, tarReader, zipReader };
export { closeSevenZipWorkers } from './sevenzip.js';

/** The archive readers, one per container format. */
export const archiveReaders: readonly ContainerReader[] = [zipReader, rarReader, sevenZipReader, tarReader];

/** The reader for a media type as detected from magic bytes (detect.ts), or undefined if none handles it. */
export function readerFor(mediaType: string): ContainerReader | undefined {
  return archiveReaders.find((r) => r.mediaTypes.includes(mediaType));
}
