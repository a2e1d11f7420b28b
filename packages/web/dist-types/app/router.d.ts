import { type RouteObject } from 'react-router';
import { type LibraryView } from './preferences';
export interface RouteHandle {
    /** The screen sets its own document title (reader, book and series routes); elsewhere it is the product name. */
    ownTitle?: boolean;
    /** A library tab: visiting it makes it the library's remembered view. */
    libraryView?: LibraryView;
}
/** Every route of spec §2. Screens of later issues render EmptyPage until they arrive. */
export declare function createRoutes(): RouteObject[];
/** The app's router: history mode under the context path the server was reached at. */
export declare function createAppRouter(): import("react-router").DataRouter;
