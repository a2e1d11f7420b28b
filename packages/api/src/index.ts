export * from './common.js';
export * from './errors.js';
export * from './users.js';
export * from './settings.js';
export * from './events.js';
