import type { AgeRestriction, Role } from './user.js';

/** Accounts: users, their sessions, API keys, remember-me tokens and authentication activity. */

/** A user as stored, with roles, shared libraries and sharing labels. */
export interface StoredUser {
  id: string;
  email: string;
  passwordHash: string;
  roles: Role[];
  sharedAllLibraries: boolean;
  sharedLibraryIds: string[];
  ageRestriction: AgeRestriction | null;
  labelsAllow: string[];
  labelsExclude: string[];
  createdDate: string;
  lastModifiedDate: string;
}

/** A session as stored: only a hash of its id, so a copy of the database opens no session. */
export interface StoredSession {
  idHash: string;
  userId: string;
  createdDate: string;
  lastAccessDate: string;
  /** The client has presented the id at least once since it was handed out. */
  confirmed: boolean;
  ip: string | null;
  userAgent: string | null;
}

/** When sessions end: the limits on idle time (confirmed or not) and on age. */
export interface SessionCutoffs {
  /** Confirmed sessions last used before this are over. */
  idleBefore: string;
  /** Unconfirmed sessions last used before this are over. */
  unconfirmedBefore: string;
  /** Sessions opened before this are over, however busy. */
  createdBefore: string;
}

export interface StoredApiKey {
  id: string;
  userId: string;
  /** SHA-512 hex of the key; the key itself is never stored. */
  keyHash: string;
  comment: string;
  createdDate: string;
  lastModifiedDate: string;
}

/** `OAuth2:<provider name>` for an OAuth2 / OpenID Connect login (api.md §2.9). */
export type AuthenticationSource = 'Password' | 'RememberMe' | 'ApiKey' | `OAuth2:${string}`;

/**
 * An OAuth2 login under way, between the redirect to the provider and its callback: in the database, so that any
 * instance can finish what another started. Found by the SHA-256 of the random value in the browser's flow cookie,
 * which ties the callback to the browser that started it.
 */
export interface StoredOAuth2Request {
  browserKeyHash: string;
  registrationId: string;
  state: string;
  nonce: string;
  pkceVerifier: string;
  /** Epoch ms; the row is useless after it. */
  expiresAt: number;
}

/** One authentication attempt (api.md §2.9). */
export interface StoredActivity {
  id: string;
  userId: string | null;
  email: string | null;
  apiKeyId: string | null;
  apiKeyComment: string | null;
  ip: string | null;
  userAgent: string | null;
  success: boolean;
  error: string | null;
  source: AuthenticationSource | null;
  dateTime: string;
}

/** What a page of authentication activity may be sorted by. */
export const ACTIVITY_SORT_PROPERTIES = ['dateTime', 'email', 'success', 'ip', 'error', 'userId', 'userAgent'] as const;
export type ActivitySortProperty = (typeof ACTIVITY_SORT_PROPERTIES)[number];
export const isActivitySortProperty = (p: string): p is ActivitySortProperty =>
  (ACTIVITY_SORT_PROPERTIES as readonly string[]).includes(p);

export interface ActivityPageRequest {
  /** Only this user's rows; all rows when absent. */
  userId?: string;
  sort: { property: ActivitySortProperty; descending: boolean }[];
  /** Absent = everything. */
  offset?: number;
  limit?: number;
}

/** A remember-me token as stored: only a keyed hash of it (accounts/remember-me.ts). */
export interface StoredRememberMeToken {
  tokenHash: string;
  userId: string;
  createdDate: string;
  expiresDate: string;
}
