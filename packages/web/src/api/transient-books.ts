import type { TransientBookDto } from '@quire/api';
import { client, operationUrl } from './client';

export type { TransientBookDto };

/**
 * Books outside the libraries, for the import screen (api.md §3.11). Scanning and analysing are one-off calls whose
 * answers the screen keeps in its own rows: they are not cached queries (an analysis is an action on the server).
 */
export const scanTransientBooks = (path: string) => client.post('/api/v1/transient-books', { body: { path } });

export const analyzeTransientBook = (id: string) =>
  client.post('/api/v1/transient-books/{id}/analyze', { params: { id } });

/** A page of a scanned book, numbered from 1. */
export const transientPageUrl = (id: string, pageNumber: number) =>
  operationUrl('/api/v1/transient-books/{id}/pages/{pageNumber}', { params: { id, pageNumber } });
