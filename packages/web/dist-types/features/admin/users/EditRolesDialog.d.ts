import type { UserDto } from '@quire/api';
export interface EditRolesDialogProps {
    user: UserDto;
    onClose: () => void;
    onSaved: () => void;
}
/** "Roles for {email}" (ui.md §13.1). Mounted per user, so the form starts from that user's roles. */
export declare function EditRolesDialog({ user, onClose, onSaved }: EditRolesDialogProps): import("react").JSX.Element;
