export interface ChangePasswordDialogProps {
    open: boolean;
    /** Whose password; omitted for the signed-in user's own. */
    userId?: string;
    /** Shown under the title when an administrator changes someone else's password. */
    email?: string;
    onClose: () => void;
    onChanged: () => void;
}
/** New password + repeat (ui.md §13.1), used from My account and from the users screen. */
export declare function ChangePasswordDialog({ open, userId, email, onClose, onChanged }: ChangePasswordDialogProps): import("react").JSX.Element;
