export type RegenerateAnswer = 'all' | 'bigger' | 'no';
/** Asked after the thumbnail size changed (ui.md §13.2): all books, only where bigger, or not at all. */
export declare function RegenerateThumbnailsDialog({ open, onAnswer, }: {
    open: boolean;
    onAnswer: (a: RegenerateAnswer) => void;
}): import("react").JSX.Element;
