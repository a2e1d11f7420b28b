import { Type, type Static } from 'typebox';

/** Keys look like `webui.poster.stretch` (api.md §9.5). */
export const CLIENT_SETTING_KEY_PATTERN = '^[a-z](?:[a-z0-9_-]*[a-z0-9])*(?:\\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9])*)*$';

export const ClientSettingDto = Type.Object({
  value: Type.String(),
  allowUnauthorized: Type.Optional(Type.Boolean()),
});
export type ClientSettingDto = Static<typeof ClientSettingDto>;

export const ClientSettingsDto = Type.Record(Type.String(), ClientSettingDto);
export type ClientSettingsDto = Static<typeof ClientSettingsDto>;

export const ClientSettingGlobalUpdateDto = Type.Object({
  value: Type.String({ minLength: 1 }),
  allowUnauthorized: Type.Boolean(),
});
export const ClientSettingUserUpdateDto = Type.Object({ value: Type.String({ minLength: 1 }) });

export const ClientSettingsGlobalUpdate = Type.Record(
  Type.String({ pattern: CLIENT_SETTING_KEY_PATTERN }),
  ClientSettingGlobalUpdateDto,
  { additionalProperties: false },
);
export const ClientSettingsUserUpdate = Type.Record(
  Type.String({ pattern: CLIENT_SETTING_KEY_PATTERN }),
  ClientSettingUserUpdateDto,
  { additionalProperties: false },
);
export const ClientSettingKeys = Type.Array(Type.String({ pattern: CLIENT_SETTING_KEY_PATTERN }));
export type ClientSettingsGlobalUpdate = Static<typeof ClientSettingsGlobalUpdate>;
export type ClientSettingsUserUpdate = Static<typeof ClientSettingsUserUpdate>;
