/** The signed-in user's API keys: list, generate, delete (ui.md §14). */
export declare function ApiKeysSection(): import("react").JSX.Element;
