/** Server settings and management (ui.md §13.2). */
export declare function ServerSettingsPage(): import("react").JSX.Element;
