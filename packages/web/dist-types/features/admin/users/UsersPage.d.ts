/** Users (ui.md §13.1). `/settings/users/add` opens the add dialog; closing it returns to the list. */
export declare function UsersPage(): import("react").JSX.Element;
