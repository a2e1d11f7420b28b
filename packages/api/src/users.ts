import { Type, type Static } from 'typebox';
import { PageDto, type Page } from './common.js';

/**
 * Users, API keys, authentication activity and claim (api.md §2, §3.7, §4.6).
 * Names and shapes are Komga's; each schema is checked against komga-openapi.json in the server's tests.
 */

export const AgeRestrictionDto = Type.Object({
  age: Type.Integer(),
  restriction: Type.Enum(['ALLOW_ONLY', 'EXCLUDE']),
});
export type AgeRestrictionDto = Static<typeof AgeRestrictionDto>;

/** UserDto omits null fields: `ageRestriction` is absent when the user has none. */
export const UserDto = Type.Object({
  id: Type.String(),
  email: Type.String(),
  /** The user's roles plus the pseudo-role `USER`. */
  roles: Type.Array(Type.String()),
  sharedAllLibraries: Type.Boolean(),
  sharedLibrariesIds: Type.Array(Type.String()),
  labelsAllow: Type.Array(Type.String()),
  labelsExclude: Type.Array(Type.String()),
  ageRestriction: Type.Optional(AgeRestrictionDto),
});
export type UserDto = Static<typeof UserDto>;

export const AgeRestrictionUpdateDto = Type.Object({
  age: Type.Integer({ minimum: 0 }),
  /** `NONE` removes the restriction. */
  restriction: Type.Enum(['ALLOW_ONLY', 'EXCLUDE', 'NONE']),
});
export type AgeRestrictionUpdateDto = Static<typeof AgeRestrictionUpdateDto>;

export const SharedLibrariesUpdateDto = Type.Object({
  all: Type.Boolean(),
  libraryIds: Type.Array(Type.String()),
});
export type SharedLibrariesUpdateDto = Static<typeof SharedLibrariesUpdateDto>;

export const UserCreationDto = Type.Object({
  /** Must match `.+@.+\..+`; checked by the server so the violation reads like Komga's. */
  email: Type.String(),
  password: Type.String({ minLength: 1 }),
  /** Unknown role names are dropped; omitted means FILE_DOWNLOAD + PAGE_STREAMING, `[]` means none. */
  roles: Type.Optional(Type.Array(Type.String())),
  ageRestriction: Type.Optional(Type.Union([AgeRestrictionUpdateDto, Type.Null()])),
  labelsAllow: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  labelsExclude: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  /** Absent means all libraries. */
  sharedLibraries: Type.Optional(Type.Union([SharedLibrariesUpdateDto, Type.Null()])),
});
export type UserCreationDto = Static<typeof UserCreationDto>;

/** Omitted = unchanged; `ageRestriction: null` (or NONE) removes it; `labelsAllow/Exclude: null` means []. */
export const UserUpdateDto = Type.Object({
  roles: Type.Optional(Type.Array(Type.String())),
  sharedLibraries: Type.Optional(SharedLibrariesUpdateDto),
  ageRestriction: Type.Optional(Type.Union([AgeRestrictionUpdateDto, Type.Null()])),
  labelsAllow: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  labelsExclude: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
});
export type UserUpdateDto = Static<typeof UserUpdateDto>;

/**
 * Komga's body, plus `currentPassword` (a Quire addition): required when users change their own password,
 * unless the request itself authenticated with it (HTTP Basic).
 */
export const PasswordUpdateDto = Type.Object({
  password: Type.String({ minLength: 1 }),
  currentPassword: Type.Optional(Type.String()),
});
export type PasswordUpdateDto = Static<typeof PasswordUpdateDto>;

/** Dates are zoned ISO-8601 in UTC; `key` is the plain key once, at creation, then `******`. */
export const ApiKeyDto = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  key: Type.String(),
  comment: Type.String(),
  createdDate: Type.String({ format: 'date-time' }),
  lastModifiedDate: Type.String({ format: 'date-time' }),
});
export type ApiKeyDto = Static<typeof ApiKeyDto>;

export const ApiKeyRequestDto = Type.Object({
  comment: Type.String({ minLength: 1 }),
});
export type ApiKeyRequestDto = Static<typeof ApiKeyRequestDto>;

export const AUTHENTICATION_SOURCES = ['Password', 'RememberMe', 'ApiKey'] as const;

/** Absent fields were null. `dateTime` is `yyyy-MM-dd'T'HH:mm:ss'Z'`. */
const NullableString = Type.Union([Type.String(), Type.Null()]);

/** Komga sends every field, null when unknown (api.md §4.6). */
export const AuthenticationActivityDto = Type.Object({
  userId: NullableString,
  email: NullableString,
  apiKeyId: NullableString,
  apiKeyComment: NullableString,
  ip: NullableString,
  userAgent: NullableString,
  success: Type.Boolean(),
  error: NullableString,
  dateTime: Type.String({ format: 'date-time' }),
  /** `Password` (Basic), `RememberMe`, `ApiKey`. */
  source: NullableString,
});
export type AuthenticationActivityDto = Static<typeof AuthenticationActivityDto>;

export const PageAuthenticationActivityDto = PageDto(AuthenticationActivityDto);
export type PageAuthenticationActivityDto = Page<AuthenticationActivityDto>;

/** Sort properties accepted on authentication activity lists (api.md §1.4). */
export const AUTHENTICATION_ACTIVITY_SORTS = [
  'dateTime',
  'email',
  'success',
  'ip',
  'error',
  'userId',
  'userAgent',
] as const;

/** Spring Data paging parameters (api.md §1.4) plus `unpaged`, for authentication activity lists. */
export const AuthenticationActivityQuery = Type.Object({
  page: Type.Optional(Type.Integer({ description: 'Zero-based page index; negative means 0' })),
  size: Type.Optional(Type.Integer({ description: 'Page size, default 20, at most 2000' })),
  sort: Type.Optional(
    Type.Array(Type.String(), { description: 'property[,asc|desc], repeatable; the first is the primary order' }),
  ),
  unpaged: Type.Optional(Type.Boolean()),
});
export type AuthenticationActivityQuery = Static<typeof AuthenticationActivityQuery>;

export const RememberMeQuery = Type.Object({
  'remember-me': Type.Optional(
    Type.Boolean({
      description: 'true issues the remember-me cookie (read as Spring reads a boolean: also on, yes, 1)',
    }),
  ),
});
export type RememberMeQuery = Static<typeof RememberMeQuery>;

export const LatestActivityQuery = Type.Object({
  apikey_id: Type.Optional(Type.String()),
});
export type LatestActivityQuery = Static<typeof LatestActivityQuery>;

export const UserIdParams = Type.Object({ id: Type.String() });
export type UserIdParams = Static<typeof UserIdParams>;

export const ApiKeyIdParams = Type.Object({ keyId: Type.String() });
export type ApiKeyIdParams = Static<typeof ApiKeyIdParams>;

export const ClaimStatusDto = Type.Object({ isClaimed: Type.Boolean() });
export type ClaimStatusDto = Static<typeof ClaimStatusDto>;

/** An OAuth2/OIDC login provider offered on the login page (`GET /api/v1/oauth2/providers`). */
export const OAuth2ClientDto = Type.Object({ name: Type.String(), registrationId: Type.String() });
export type OAuth2ClientDto = Static<typeof OAuth2ClientDto>;

/** Headers of `POST /api/v1/claim`; validated by the server so the violations read like Komga's. */
export const ClaimHeaders = Type.Object({
  'x-komga-email': Type.Optional(Type.String()),
  'x-komga-password': Type.Optional(Type.String()),
});
export type ClaimHeaders = Static<typeof ClaimHeaders>;
