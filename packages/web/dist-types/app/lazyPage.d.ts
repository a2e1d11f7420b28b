import type { ComponentType } from 'react';
/** spec §9: a screen chunk that has not arrived after 120 s counts as failed. */
export declare const CHUNK_LOAD_TIMEOUT_MS = 120000;
export declare class ChunkLoadError extends Error {
    constructor(cause?: unknown);
}
/** A route's `lazy`: loads the screen's module (its own chunk) and takes the named component from it. */
export declare function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): () => Promise<{
    Component: ComponentType;
}>;
