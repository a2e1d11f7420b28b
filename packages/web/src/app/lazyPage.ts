import type { ComponentType } from 'react';

/** spec §9: a screen chunk that has not arrived after 120 s counts as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(cause?: unknown) {
    super('Loading a screen failed', { cause });
    this.name = 'ChunkLoadError';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A route's `lazy`: loads the screen's module (its own chunk) and takes the named component from it. */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => {
    try {
      const module = await withTimeout(load(), CHUNK_LOAD_TIMEOUT_MS);
      return { Component: pick(module) };
    } catch (e) {
      throw e instanceof ChunkLoadError ? e : new ChunkLoadError(e);
    }
  };
}
