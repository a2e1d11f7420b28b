export const THUMBNAIL_SIZES = { DEFAULT: 300, MEDIUM: 600, LARGE: 900, XLARGE: 1200 } as const;
export type ThumbnailSize = keyof typeof THUMBNAIL_SIZES;

/** Server settings as stored (engine.md §1.3, api.md §9.4). */
export interface ServerSettingsValues {
  deleteEmptyCollections: boolean;
  deleteEmptyReadLists: boolean;
  rememberMeDurationDays: number;
  /** Secret that signs remember-me cookies; renewing it logs every remembered browser out. */
  rememberMeKey: string;
  taskPoolSize: number;
  thumbnailSize: ThumbnailSize;
  /** Database values; null means "use the configuration". */
  serverPort: number | null;
  serverContextPath: string | null;
  koboPort: number | null;
  koboProxy: boolean;
  kepubifyPath: string | null;
}

/** Read and change server settings; implemented over the database so every instance sees the same. */
export interface SettingsStore {
  get(): Promise<ServerSettingsValues>;
  update(patch: Partial<ServerSettingsValues>): Promise<ServerSettingsValues>;
}

export interface StoredClientSetting {
  value: string;
  allowUnauthorized: boolean;
}
