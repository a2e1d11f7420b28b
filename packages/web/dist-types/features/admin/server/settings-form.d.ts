import type { RestartSetting, SettingsDto, SettingsUpdateDto, ThumbnailSizeDto } from '@quire/api';
/** Settings that take effect only after a restart (api.md §9.4); kept here so no schema code ships to the browser. */
export declare const RESTART_SETTINGS: readonly RestartSetting[];
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
export declare const CONTEXT_PATH_REGEX: RegExp;
export declare const THUMBNAIL_SIZES: readonly {
    value: ThumbnailSizeDto;
    px: number;
}[];
/** The form edits what is stored in the database; the configuration value is only a placeholder. */
export declare function formOf(s: SettingsDto): ServerSettingsForm;
export declare function validateSettings(f: ServerSettingsForm): SettingsErrors;
/** Only what differs from the loaded settings (PATCH semantics: omitted means unchanged). */
export declare function settingsChanges(initial: ServerSettingsForm, current: ServerSettingsForm): SettingsUpdateDto;
/** The fields of a saved change that only take effect after a restart. */
export declare function restartFieldsOf(patch: SettingsUpdateDto): RestartSetting[];
