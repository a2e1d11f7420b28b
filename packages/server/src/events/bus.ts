import { EventEmitter } from 'node:events';
import type { QuireEvent } from '@quire/api';

/**
 * The one event bus. In-process today; a PostgreSQL LISTEN/NOTIFY implementation can replace it
 * behind this interface when several instances share a database.
 */
export interface EventBus {
  emit(event: QuireEvent): void;
  subscribe(listener: (event: QuireEvent) => void): () => void;
}

export function createEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit: (event) => emitter.emit('event', event),
    subscribe(listener) {
      emitter.on('event', listener);
      return () => emitter.off('event', listener);
    },
  };
}
