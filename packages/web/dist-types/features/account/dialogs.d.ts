import { type ReactNode } from 'react';
import { type AlertColor } from '@mui/material';
/** Dialogs take the whole screen below the `sm` breakpoint (phones). */
export declare function useFullScreenDialog(): boolean;
/** A failure as a sentence: `ERR_xxxx` codes are translated (errors namespace), other server messages kept. */
export declare function useErrorText(): (error: unknown) => string;
export interface ToastMessage {
    text: string;
    severity: AlertColor;
}
/** One message at a time at the bottom of the screen; `show` replaces the current one. */
export declare function useToast(): {
    toast: ReactNode;
    show: (text: string, severity?: AlertColor) => void;
};
export interface ConfirmDialogProps {
    open: boolean;
    title: string;
    /** What will happen, in a sentence or two. */
    children: ReactNode;
    /** When given, a checkbox with this label must be ticked before the action is enabled. */
    acknowledge?: string;
    confirmLabel: string;
    pending?: boolean;
    error?: string | null;
    onConfirm: () => void;
    onClose: () => void;
}
/** A destructive action's confirmation (ui.md §12.8): red button, optionally behind a required checkbox. */
export declare function ConfirmDialog(props: ConfirmDialogProps): import("react").JSX.Element;
/** Medium date with short time in the interface language (ui.md §15). */
export declare function useDateTimeFormat(): (iso: string) => string;
