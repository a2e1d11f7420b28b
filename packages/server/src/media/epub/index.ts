export * from './analyze.js';
export * from './nav.js';
export * from './package.js';
export * from './paths.js';
export * from './resource.js';
export * from './webpub.js';
export * from './analysis-pool.js';
