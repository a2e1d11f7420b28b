/** An error where content should be: the (translated) server message, and Retry when the caller can retry. */
export declare function ErrorState({ error, title, onRetry }: {
    error: unknown;
    title?: string;
    onRetry?: () => void;
}): import("react").JSX.Element;
