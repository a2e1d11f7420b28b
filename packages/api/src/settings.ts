import { Type, type Static, type TSchema } from 'typebox';

/**
 * Server settings (api.md §9.4): `GET|PATCH /api/v1/settings`, ADMIN only.
 *
 * Nullable values use a JSON-schema type array (`["integer","null"]`) rather than `anyOf`: with the
 * server's type coercion an `anyOf` would silently turn `0` into `null` and accept it.
 */
const nullable = <T extends TSchema & { type: string }>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });

export const THUMBNAIL_SIZE_NAMES = ['DEFAULT', 'MEDIUM', 'LARGE', 'XLARGE'] as const;
export const ThumbnailSizeDto = Type.Enum([...THUMBNAIL_SIZE_NAMES]);
export type ThumbnailSizeDto = (typeof THUMBNAIL_SIZE_NAMES)[number];

/** A setting that can come from the configuration (environment) or the database; the database wins. */
export const SettingMultiSourceInteger = Type.Object({
  configurationSource: nullable(Type.Integer()),
  databaseSource: nullable(Type.Integer()),
  effectiveValue: nullable(Type.Integer()),
});
export type SettingMultiSourceInteger = Static<typeof SettingMultiSourceInteger>;

export const SettingMultiSourceString = Type.Object({
  configurationSource: nullable(Type.String()),
  databaseSource: nullable(Type.String()),
  effectiveValue: nullable(Type.String()),
});
export type SettingMultiSourceString = Static<typeof SettingMultiSourceString>;

export const SettingsDto = Type.Object({
  deleteEmptyCollections: Type.Boolean(),
  deleteEmptyReadLists: Type.Boolean(),
  rememberMeDurationDays: Type.Integer(),
  thumbnailSize: ThumbnailSizeDto,
  taskPoolSize: Type.Integer(),
  serverPort: SettingMultiSourceInteger,
  serverContextPath: SettingMultiSourceString,
  koboProxy: Type.Boolean(),
  koboPort: nullable(Type.Integer()),
  kepubifyPath: SettingMultiSourceString,
});
export type SettingsDto = Static<typeof SettingsDto>;

/**
 * Komga's pattern `^/[\w-/]*[a-zA-Z0-9]$`, with the `-` escaped so that it compiles as a unicode
 * regular expression (same meaning).
 */
export const CONTEXT_PATH_PATTERN = '^/[\\w\\-/]*[a-zA-Z0-9]$';

/** Omit a field to leave it unchanged; `null` clears serverPort, serverContextPath, koboPort, kepubifyPath. */
export const SettingsUpdateDto = Type.Object({
  deleteEmptyCollections: Type.Optional(Type.Boolean()),
  deleteEmptyReadLists: Type.Optional(Type.Boolean()),
  rememberMeDurationDays: Type.Optional(Type.Integer({ minimum: 0 })),
  renewRememberMeKey: Type.Optional(Type.Boolean()),
  thumbnailSize: Type.Optional(ThumbnailSizeDto),
  taskPoolSize: Type.Optional(Type.Integer({ minimum: 1 })),
  serverPort: Type.Optional(nullable(Type.Integer({ minimum: 1, maximum: 65535 }))),
  serverContextPath: Type.Optional(nullable(Type.String({ pattern: CONTEXT_PATH_PATTERN }))),
  koboProxy: Type.Optional(Type.Boolean()),
  koboPort: Type.Optional(nullable(Type.Integer({ minimum: 1, maximum: 65535 }))),
  kepubifyPath: Type.Optional(nullable(Type.String())),
});
export type SettingsUpdateDto = Static<typeof SettingsUpdateDto>;

/**
 * Settings that only take effect when the server restarts. Komga also restarts for the remember-me duration
 * and key (api.md §9.4); Quire reads those on every request, so they apply at once.
 */
export const RESTART_SETTINGS = ['serverPort', 'serverContextPath'] as const;
export type RestartSetting = (typeof RESTART_SETTINGS)[number];

/**
 * Quire extension, `GET /api/v1/settings/restart-required` (ADMIN): which settings were changed since the
 * running process started and wait for a restart. `PATCH /api/v1/settings` also answers the same list in
 * the `X-Quire-Restart-Required` header (comma-separated, absent when empty).
 */
export const SettingsRestartRequiredDto = Type.Object({
  restartRequired: Type.Boolean(),
  settings: Type.Array(Type.Enum([...RESTART_SETTINGS])),
});
export type SettingsRestartRequiredDto = Static<typeof SettingsRestartRequiredDto>;
