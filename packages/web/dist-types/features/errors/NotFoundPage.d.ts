/** Any path that matches no route (spec §2): says so, with a link back home. */
export declare function NotFoundPage(): import("react").JSX.Element;
/** A registered route whose screen has no content to show in this build. */
export declare function EmptyPage(): import("react").JSX.Element;
