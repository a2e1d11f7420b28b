/**
 * `/startup?redirect=…`: an unclaimed server goes to login (create-account mode); a live session goes straight to
 * the redirect target; anything else to login, keeping the redirect.
 */
export declare function StartupPage(): import("react").JSX.Element;
