/** My account (ui.md §14): details and password, API keys, own authentication activity. */
export declare function AccountPage(): import("react").JSX.Element;
