import type { UserDto } from '@quire/api';
export interface RestrictionsDialogProps {
    user: UserDto;
    /** Sharing labels already in use, offered as suggestions. */
    labelSuggestions: readonly string[];
    onClose: () => void;
    onSaved: () => void;
}
/** Shared libraries and content restrictions of one user (ui.md §13.1). */
export declare function RestrictionsDialog({ user, labelSuggestions, onClose, onSaved }: RestrictionsDialogProps): import("react").JSX.Element;
