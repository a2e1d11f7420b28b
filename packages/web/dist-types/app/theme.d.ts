import { type Theme } from '@mui/material/styles';
import type { ThemePreference } from './preferences';
declare module '@mui/material/styles' {
    interface Palette {
        accent: Palette['primary'];
    }
    interface PaletteOptions {
        accent?: PaletteOptions['primary'];
    }
}
/** spec §9 / ui.md §1.5 */
export declare const COLORS: {
    readonly primaryLight: "#005ed3";
    readonly primaryDark: "#78baec";
    readonly secondary: "#fec000";
    readonly accent: "#ff0335";
};
export type ColorMode = 'light' | 'dark';
/** The theme setting applied: the OS preference counts only when the setting is 'system'. */
export declare function resolveColorMode(preference: ThemePreference, systemPrefersDark: boolean): ColorMode;
export declare function createAppTheme(mode: ColorMode, direction: 'ltr' | 'rtl'): Theme;
