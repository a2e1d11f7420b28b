/** The signed-in user's own authentication activity, newest first, paged by the server (ui.md §13.1, §14). */
export declare function AuthenticationActivityTable(): import("react").JSX.Element;
