export interface AddUserDialogProps {
    open: boolean;
    onClose: () => void;
    onCreated: (email: string) => void;
}
/** E-mail, password and roles (ui.md §13.1); FILE_DOWNLOAD and PAGE_STREAMING ticked by default. */
export declare function AddUserDialog({ open, onClose, onCreated }: AddUserDialogProps): import("react").JSX.Element;
