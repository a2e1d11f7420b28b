export const ROLES = ['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC', 'KOREADER_SYNC'] as const;
export type Role = (typeof ROLES)[number];

export interface AgeRestriction {
  age: number;
  restriction: 'ALLOW_ONLY' | 'EXCLUDE';
}

/** The authenticated caller, as every route and service sees it. */
export interface CurrentUser {
  id: string;
  email: string;
  roles: ReadonlySet<Role>;
  sharedAllLibraries: boolean;
  sharedLibraryIds: readonly string[];
  ageRestriction: AgeRestriction | null;
  labelsAllow: readonly string[];
  labelsExclude: readonly string[];
  /** How this request authenticated; the session id when it rode a session. */
  sessionId?: string;
  apiKeyId?: string;
}

export const isAdmin = (u: CurrentUser) => u.roles.has('ADMIN');
