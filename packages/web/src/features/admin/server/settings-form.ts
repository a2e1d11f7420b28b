import type { RestartSetting, SettingsDto, SettingsUpdateDto, ThumbnailSizeDto } from '@quire/api';

/** Settings that take effect only after a restart (api.md §9.4); kept here so no schema code ships to the browser. */
export const RESTART_SETTINGS: readonly RestartSetting[] = ['serverPort', 'serverContextPath'];

/** The server settings form (ui.md §13.2): numbers are kept as typed, so that errors can be shown. */
export interface ServerSettingsForm {
  thumbnailSize: ThumbnailSizeDto;
  deleteEmptyCollections: boolean;
  deleteEmptyReadLists: boolean;
  taskPoolSize: string;
  rememberMeDurationDays: string;
  renewRememberMeKey: boolean;
  serverPort: string;
  serverContextPath: string;
  koboProxy: boolean;
  koboPort: string;
  kepubifyPath: string;
}

export type SettingsFieldError = 'required' | 'wholeNumber' | 'minOne' | 'minZero' | 'port' | 'contextPath';
export type SettingsErrors = Partial<Record<keyof ServerSettingsForm, SettingsFieldError>>;

/** Komga's `^/[\w-/]*[a-zA-Z0-9]$` (spec §5). */
export const CONTEXT_PATH_REGEX = /^\/[\w\-/]*[a-zA-Z0-9]$/;

export const THUMBNAIL_SIZES: readonly { value: ThumbnailSizeDto; px: number }[] = [
  { value: 'DEFAULT', px: 300 },
  { value: 'MEDIUM', px: 600 },
  { value: 'LARGE', px: 900 },
  { value: 'XLARGE', px: 1200 },
];

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** The form edits what is stored in the database; the configuration value is only shown as a hint. */
export function formOf(s: SettingsDto): ServerSettingsForm {
  return {
    thumbnailSize: s.thumbnailSize,
    deleteEmptyCollections: s.deleteEmptyCollections,
    deleteEmptyReadLists: s.deleteEmptyReadLists,
    taskPoolSize: text(s.taskPoolSize),
    rememberMeDurationDays: text(s.rememberMeDurationDays),
    renewRememberMeKey: false,
    serverPort: text(s.serverPort.databaseSource),
    serverContextPath: s.serverContextPath.databaseSource ?? '',
    koboProxy: s.koboProxy,
    // Unlike the server port, Komga's koboPort is a plain number: there is no configuration value for it.
    koboPort: text(s.koboPort),
    kepubifyPath: s.kepubifyPath.databaseSource ?? '',
  };
}

function integer(
  value: string,
  min: number,
  max: number,
  rangeError: SettingsFieldError,
): SettingsFieldError | undefined {
  const n = Number(value.trim());
  if (!/^-?\d+$/.test(value.trim())) return 'wholeNumber';
  if (n < min || n > max) return rangeError;
  return undefined;
}

export function validateSettings(f: ServerSettingsForm): SettingsErrors {
  const errors: SettingsErrors = {};
  const put = (key: keyof ServerSettingsForm, e: SettingsFieldError | undefined) => {
    if (e) errors[key] = e;
  };
  put('taskPoolSize', f.taskPoolSize.trim() === '' ? 'required' : integer(f.taskPoolSize, 1, 2 ** 31 - 1, 'minOne'));
  put(
    'rememberMeDurationDays',
    f.rememberMeDurationDays.trim() === '' ? 'required' : integer(f.rememberMeDurationDays, 0, 2 ** 31 - 1, 'minZero'),
  );
  if (f.serverPort.trim() !== '') put('serverPort', integer(f.serverPort, 1, 65535, 'port'));
  if (f.koboPort.trim() !== '') put('koboPort', integer(f.koboPort, 1, 65535, 'port'));
  if (f.serverContextPath.trim() !== '' && !CONTEXT_PATH_REGEX.test(f.serverContextPath.trim()))
    errors.serverContextPath = 'contextPath';
  return errors;
}

const optionalInt = (v: string) => (v.trim() === '' ? null : Number(v.trim()));
const optionalText = (v: string) => (v.trim() === '' ? null : v.trim());

/** The form as the server wants it; empty optional fields are `null` (remove the stored value). */
function toUpdate(f: ServerSettingsForm): SettingsUpdateDto {
  return {
    thumbnailSize: f.thumbnailSize,
    deleteEmptyCollections: f.deleteEmptyCollections,
    deleteEmptyReadLists: f.deleteEmptyReadLists,
    taskPoolSize: Number(f.taskPoolSize.trim()),
    rememberMeDurationDays: Number(f.rememberMeDurationDays.trim()),
    renewRememberMeKey: f.renewRememberMeKey,
    serverPort: optionalInt(f.serverPort),
    serverContextPath: optionalText(f.serverContextPath),
    koboProxy: f.koboProxy,
    koboPort: optionalInt(f.koboPort),
    kepubifyPath: optionalText(f.kepubifyPath),
  };
}

/** Only what differs from the loaded settings (PATCH semantics: omitted means unchanged). */
export function settingsChanges(initial: ServerSettingsForm, current: ServerSettingsForm): SettingsUpdateDto {
  const before = toUpdate(initial);
  const after = toUpdate(current);
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof SettingsUpdateDto)[]) {
    if (after[key] !== before[key]) patch[key] = after[key];
  }
  if (!current.renewRememberMeKey) delete patch.renewRememberMeKey;
  return patch as SettingsUpdateDto;
}

/** The fields of a saved change that only take effect after a restart. */
export function restartFieldsOf(patch: SettingsUpdateDto): RestartSetting[] {
  return RESTART_SETTINGS.filter((k) => k in patch);
}
