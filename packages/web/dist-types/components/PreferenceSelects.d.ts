/** Native selects: labelled "Theme" and "Language", keyboard friendly, and the same on every device. */
export declare function ThemeSelect(): import("react").JSX.Element;
export declare function LanguageSelect(): import("react").JSX.Element;
