import { limitYoungGeneration } from './heap.js';

limitYoungGeneration();
await import('./serve.js');
