import type { Migration } from 'kysely';
import * as m0001 from './0001-accounts.js';
import * as m0002 from './0002-tasks.js';
import * as m0003 from './0003-library.js';
import * as m0004 from './0004-client-settings.js';
import * as m0005 from './0005-collections.js';
import * as m0006 from './0006-search.js';
import * as m0007 from './0007-membership-removals.js';
import * as m0008 from './0008-sessions-remember-me.js';
import * as m0009 from './0009-task-kind-index.js';
import * as m0010 from './0010-historical-events.js';
import * as m0011 from './0011-page-hashes.js';
import * as m0012 from './0012-transient-books.js';
import * as m0013 from './0013-book-imports.js';
import * as m0014 from './0014-metrics.js';
import * as m0015 from './0015-announcements.js';
import * as m0016 from './0016-oauth2-requests.js';
import * as m0017 from './0017-browse-at-scale.js';
import * as m0018 from './0018-koreader-hash-index.js';
import * as m0019 from './0019-kobo-sync-points.js';
import * as m0020 from './0020-kobo-sync-point-readlists.js';
import * as m0021 from './0021-covering-value-indexes.js';
import * as m0022 from './0022-book-title-sort-keys.js';
import * as m0023 from './0023-series-title-search.js';
import * as m0024 from './0024-search-serial-scans.js';
import * as m0025 from './0025-book-title-search.js';
import * as m0026 from './0026-task-after-analyses.js';

/** Forward-only, applied in name order at start-up. Never edit a migration that has shipped; add one. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': m0001,
  '0002-tasks': m0002,
  '0003-library': m0003,
  '0004-client-settings': m0004,
  '0005-collections': m0005,
  '0006-search': m0006,
  '0007-membership-removals': m0007,
  '0008-sessions-remember-me': m0008,
  '0009-task-kind-index': m0009,
  '0010-historical-events': m0010,
  '0011-page-hashes': m0011,
  '0012-transient-books': m0012,
  '0013-book-imports': m0013,
  '0014-metrics': m0014,
  '0015-announcements': m0015,
  '0016-oauth2-requests': m0016,
  '0017-browse-at-scale': m0017,
  '0018-koreader-hash-index': m0018,
  '0019-kobo-sync-points': m0019,
  '0020-kobo-sync-point-readlists': m0020,
  '0021-covering-value-indexes': m0021,
  '0022-book-title-sort-keys': m0022,
  '0023-series-title-search': m0023,
  '0024-search-serial-scans': m0024,
  '0025-book-title-search': m0025,
  '0026-task-after-analyses': m0026,
};
