/** The last TaskQueueStatus event, kept in the query cache for the drawer's progress bar. */
export declare const taskQueueKey: readonly ["tasks", "status"];
/**
 * One EventSource on `/sse/v1/events` while `enabled` (the user is authenticated), closed when it turns false or the
 * caller unmounts. The browser's own reconnect is the only retry.
 */
export declare function useLiveEvents(enabled: boolean, onSessionExpired: () => void): void;
