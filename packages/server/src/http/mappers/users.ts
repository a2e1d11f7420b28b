import type { ApiKeyDto, AuthenticationActivityDto, AuthenticationActivityQuery, UserDto } from '@quire/api';
import type { AgeRestriction, Role } from '../../domain/user.js';
import type { StoredApiKey } from '../../domain/account.js';
import { isActivitySortProperty, type ActivityPageRequest, type StoredActivity } from '../../domain/account.js';

/** What a UserDto is made from: a stored user or the current one. */
export interface UserLike {
  id: string;
  email: string;
  roles: Iterable<Role>;
  sharedAllLibraries: boolean;
  sharedLibraryIds: readonly string[];
  ageRestriction: AgeRestriction | null;
  labelsAllow: readonly string[];
  labelsExclude: readonly string[];
}

/** Roles plus the pseudo-role USER; `ageRestriction` left out when there is none. */
export function toUserDto(u: UserLike): UserDto {
  return {
    id: u.id,
    email: u.email,
    roles: [...u.roles, 'USER'],
    sharedAllLibraries: u.sharedAllLibraries,
    sharedLibrariesIds: [...u.sharedLibraryIds],
    labelsAllow: [...u.labelsAllow],
    labelsExclude: [...u.labelsExclude],
    ...(u.ageRestriction ? { ageRestriction: { ...u.ageRestriction } } : {}),
  };
}

/** `key` is the plain key only right after creation; `******` otherwise. */
export function toApiKeyDto(k: StoredApiKey, plainKey?: string): ApiKeyDto {
  return {
    id: k.id,
    userId: k.userId,
    key: plainKey ?? '******',
    comment: k.comment,
    createdDate: zonedDateTime(k.createdDate),
    lastModifiedDate: zonedDateTime(k.createdDate),
  };
}

export function toAuthenticationActivityDto(a: StoredActivity): AuthenticationActivityDto {
  return {
    userId: a.userId,
    email: a.email,
    apiKeyId: a.apiKeyId,
    apiKeyComment: a.apiKeyComment,
    ip: a.ip,
    userAgent: a.userAgent,
    success: a.success,
    error: a.error,
    dateTime: utcDateTime(a.dateTime),
    source: a.source,
  };
}

/** `yyyy-MM-dd'T'HH:mm:ss'Z'` (api.md §1.3, annotated UTC date-time). */
export const utcDateTime = (iso: string) => `${new Date(iso).toISOString().slice(0, 19)}Z`;

/** Zoned ISO-8601 in UTC, the fraction only when non-zero (api.md §1.3). */
export const zonedDateTime = (iso: string) => new Date(iso).toISOString().replace('.000Z', 'Z');

// ---- Spring Data paging (api.md §1.4) ----

const DEFAULT_SIZE = 20;
const MAX_SIZE = 2000;

export interface PageRequest {
  page: number;
  size: number;
  unpaged: boolean;
}

/** page/size/sort/unpaged as Spring reads them; unknown sort properties are ignored. */
export function toActivityPageRequest(q: AuthenticationActivityQuery): {
  request: Omit<ActivityPageRequest, 'userId'>;
  page: PageRequest;
} {
  const page = Math.max(0, q.page ?? 0);
  const size = q.size === undefined || q.size < 1 ? DEFAULT_SIZE : Math.min(q.size, MAX_SIZE);
  const unpaged = q.unpaged === true;
  const sort: ActivityPageRequest['sort'] = [];
  for (const entry of q.sort ?? []) {
    const parts = entry
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const last = parts.at(-1)?.toLowerCase();
    const descending = last === 'desc';
    if (last === 'asc' || last === 'desc') parts.pop();
    for (const property of parts) if (isActivitySortProperty(property)) sort.push({ property, descending });
  }
  if (!sort.length) sort.push({ property: 'dateTime', descending: true });
  return {
    request: unpaged ? { sort } : { sort, offset: page * size, limit: size },
    page: { page, size, unpaged },
  };
}
