/** Route error boundary: a screen failed to load or threw while rendering. */
export declare function RouteError(): import("react").JSX.Element;
