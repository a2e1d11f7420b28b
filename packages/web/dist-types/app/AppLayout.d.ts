export declare const DRAWER_WIDTH = 260;
/** The shell around most screens: app bar, navigation drawer (permanent from md up, temporary below), content. */
export declare function AppLayout(): import("react").JSX.Element;
