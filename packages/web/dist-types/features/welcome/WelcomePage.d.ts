/**
 * Shown while there is no library (spec §2). Leaves for the dashboard as soon as one exists. Libraries are added
 * from a dialog that a later screen brings, so this screen explains instead of offering a button that opens nothing.
 */
export declare function WelcomePage(): import("react").JSX.Element;
