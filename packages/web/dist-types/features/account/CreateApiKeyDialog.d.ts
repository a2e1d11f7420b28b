export interface CreateApiKeyDialogProps {
    open: boolean;
    onClose: () => void;
}
/** Comment in, key out: the plain key is shown once, with a copy button (ui.md §14). */
export declare function CreateApiKeyDialog({ open, onClose }: CreateApiKeyDialogProps): import("react").JSX.Element;
