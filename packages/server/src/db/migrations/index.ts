import type { Migration } from 'kysely';
import * as m0001 from './0001-accounts.js';

/** Forward-only, applied in name order at start-up. Never edit a migration that has shipped; add one. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': m0001,
};
