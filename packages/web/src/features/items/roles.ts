import { useCurrentUser } from '../../api/auth';

export interface Roles {
  admin: boolean;
  /** FILE_DOWNLOAD: may download book, series and read-list files. */
  download: boolean;
  /** PAGE_STREAMING: may open the readers. */
  streaming: boolean;
}

/** The signed-in user's roles that gate item actions (all false while loading). */
export function useRoles(): Roles {
  const roles = useCurrentUser().data?.roles ?? [];
  return {
    admin: roles.includes('ADMIN'),
    download: roles.includes('FILE_DOWNLOAD'),
    streaming: roles.includes('PAGE_STREAMING'),
  };
}
