import { createTheme, type Theme } from '@mui/material/styles';
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
export const COLORS = {
  primaryLight: '#005ed3',
  primaryDark: '#78baec',
  secondary: '#fec000',
  accent: '#ff0335',
} as const;

export type ColorMode = 'light' | 'dark';

/** The theme setting applied: the OS preference counts only when the setting is 'system'. */
export function resolveColorMode(preference: ThemePreference, systemPrefersDark: boolean): ColorMode {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

export function createAppTheme(mode: ColorMode, direction: 'ltr' | 'rtl'): Theme {
  return createTheme({
    direction,
    palette: {
      mode,
      primary: { main: mode === 'dark' ? COLORS.primaryDark : COLORS.primaryLight },
      secondary: { main: COLORS.secondary },
      accent: { main: COLORS.accent, contrastText: '#fff' },
      ...(mode === 'dark' ? { background: { default: '#121212', paper: '#1e1e1e' } } : {}),
    },
  });
}
