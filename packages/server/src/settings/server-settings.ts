import type { Db } from '../db/database.js';
import type { ServerSettingsValues, SettingsStore } from '../domain/settings.js';

export function createSettingsStore(_db: Db): SettingsStore {
  const defaults: ServerSettingsValues = {
    deleteEmptyCollections: true,
    deleteEmptyReadLists: true,
    rememberMeDurationDays: 365,
    rememberMeKey: '',
    taskPoolSize: 1,
    thumbnailSize: 'DEFAULT',
    serverPort: null,
    serverContextPath: null,
    koboPort: null,
    koboProxy: false,
    kepubifyPath: null,
  };
  return { get: async () => defaults, update: async () => defaults };
}
