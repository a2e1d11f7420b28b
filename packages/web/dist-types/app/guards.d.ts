import { type LibraryView } from './preferences';
/** The URL segment of each library view. */
export declare const LIBRARY_VIEW_PATHS: Record<LibraryView, string>;
/**
 * Every route below needs a signed-in user; otherwise startup, with the full original path (query and hash
 * included) as `redirect`. While signed in, the live-event stream is open.
 */
export declare function RequireAuth(): import("react").JSX.Element;
/** Admin-only screens: anyone else goes home. */
export declare function RequireAdmin(): import("react").JSX.Element;
/** Dashboard and library browse screens: while no library exists, the welcome screen instead. */
export declare function RequireLibraries(): import("react").JSX.Element;
/** `/libraries` and `/libraries/:libraryId`: on to the remembered view of that library. */
export declare function LibraryRedirect(): import("react").JSX.Element;
