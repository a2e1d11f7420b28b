/** A neutral placeholder while a screen loads: a title line and a grid of card-sized blocks. */
export declare function PageSkeleton({ cards }: {
    cards?: number;
}): import("react").JSX.Element;
/** Full-window placeholder used before the shell itself can render (user not loaded yet). */
export declare function FullPageLoader(): import("react").JSX.Element;
