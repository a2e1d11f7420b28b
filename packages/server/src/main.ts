import { limitYoungGeneration } from './heap.js';
import { limitMallocArenas } from './native-memory.js';

limitYoungGeneration();
await limitMallocArenas();
await import('./serve.js');
