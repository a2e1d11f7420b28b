import type { Generated } from 'kysely';

/** Booleans are stored as 0/1 (SQLite); read them through `Boolean(x)`. */
type Bool = number | boolean;

export interface UserTable {
  id: string;
  email: string;
  email_lower: string;
  password_hash: string;
  shared_all_libraries: Bool;
  age_restriction: number | null;
  age_restriction_allow_only: Bool | null;
  created_date: string;
  last_modified_date: string;
}
export interface UserRoleTable {
  user_id: string;
  role: string;
}
export interface UserLibrarySharingTable {
  user_id: string;
  library_id: string;
}
export interface UserSharingLabelTable {
  user_id: string;
  label: string;
  allow: Bool;
}
export interface SessionTable {
  id_hash: string;
  user_id: string;
  created_date: string;
  last_access_date: string;
}
export interface ApiKeyTable {
  id: string;
  user_id: string;
  key_hash: string;
  comment: string;
  created_date: string;
  last_modified_date: string;
}
export interface AuthenticationActivityTable {
  id: string;
  user_id: string | null;
  email: string | null;
  api_key_id: string | null;
  api_key_comment: string | null;
  ip: string | null;
  user_agent: string | null;
  success: Bool;
  error: string | null;
  source: string | null;
  date_time: string;
}
export interface ServerSettingsTable {
  key: string;
  value: string | null;
}
export interface TaskTable {
  unique_id: string;
  kind: string;
  priority: number;
  group_id: string | null;
  payload: string;
  owner: string | null;
  run_again: Generated<number>;
  seq: number;
  created_date: string;
  last_modified_date: string;
}

export interface DB {
  user: UserTable;
  user_role: UserRoleTable;
  user_library_sharing: UserLibrarySharingTable;
  user_sharing_label: UserSharingLabelTable;
  session: SessionTable;
  api_key: ApiKeyTable;
  authentication_activity: AuthenticationActivityTable;
  server_settings: ServerSettingsTable;
  task: TaskTable;
}

export type { Generated };
