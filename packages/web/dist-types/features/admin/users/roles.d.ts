/** Roles an administrator can grant (ui.md conventions); `USER` is only a label. */
export declare const ROLES: readonly ["ADMIN", "FILE_DOWNLOAD", "PAGE_STREAMING", "KOBO_SYNC", "KOREADER_SYNC"];
export type Role = (typeof ROLES)[number];
/** Roles a new user gets unless the administrator changes them. */
export declare const DEFAULT_ROLES: readonly Role[];
export declare const isRole: (r: string) => r is Role;
/** Translated role names: one key per role, so that translators see them all. */
export declare function useRoleLabel(): (role: string) => string;
/** Role chips; a user without any real role shows the plain "User" chip. */
export declare function RoleChips({ roles }: {
    roles: readonly string[];
}): import("react").JSX.Element;
export interface RoleCheckboxesProps {
    value: readonly Role[];
    onChange: (roles: Role[]) => void;
    /** Roles that cannot be changed here, with the reason shown as help text. */
    locked?: {
        roles: readonly Role[];
        reason: string;
    };
}
/** One checkbox per role, in the fixed order of ROLES. */
export declare function RoleCheckboxes({ value, onChange, locked }: RoleCheckboxesProps): import("react").JSX.Element;
