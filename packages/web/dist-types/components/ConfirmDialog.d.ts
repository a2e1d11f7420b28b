import { type ReactNode } from 'react';
export interface ConfirmDialogProps {
    open: boolean;
    title: string;
    message: ReactNode;
    /** Label of the confirming button, e.g. "Delete". Defaults to "Confirm". */
    confirmLabel?: string;
    /** Irreversible actions get the error colour. */
    danger?: boolean;
    busy?: boolean;
    onConfirm: () => void;
    onClose: () => void;
}
export declare function ConfirmDialog({ open, title, message, confirmLabel, danger, busy, onConfirm, onClose, }: ConfirmDialogProps): import("react").JSX.Element;
