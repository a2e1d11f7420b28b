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

/**
 * spec §9 / ui.md §1.5, with the shades that failed WCAG AA contrast (4.5:1 for text) adjusted: the accent
 * `#ff0335` under white text gave 3.95:1, `#e0002e` gives 4.99:1. docs/architecture.md lists every change.
 */
export const COLORS = {
  primaryLight: '#005ed3',
  primaryDark: '#78baec',
  secondary: '#fec000',
  accent: '#e0002e',
} as const;

/**
 * Light theme's status colours as text on white and under white text: MUI's info `#0288d1` (3.86:1) and warning
 * `#ed6c02` (3.11:1) fail AA, these pass (5.94:1, 5.02:1; the info one 4.99:1 on a selected list item's grey too).
 * The dark theme's defaults pass as text on its dark backgrounds; their text colour comes from `contrastThreshold`.
 */
const LIGHT_STATUS = { info: { main: '#0268a6' }, warning: { main: '#b45309' } };

export type ColorMode = 'light' | 'dark';

/** The theme setting applied: the OS preference counts only when the setting is 'system'. */
export function resolveColorMode(preference: ThemePreference, systemPrefersDark: boolean): ColorMode {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

/**
 * The keyboard focus ring of every control: 3 px in the theme's primary colour (5.9:1 on the light background,
 * 8.9:1 on the dark one, 3.5:1 on the readers' black), in the text colour inside the app bar, whose background is the
 * primary colour. Only for keyboard focus (`:focus-visible`, MUI's `Mui-focusVisible`), not on click.
 */
function focusRing(mode: ColorMode) {
  return {
    outline: `3px solid ${mode === 'dark' ? COLORS.primaryDark : COLORS.primaryLight}`,
    outlineOffset: 2,
  };
}

/** MUI's transitions in no time: dialogs, menus, drawers and tooltips appear and go at once. */
const NO_TRANSITIONS = {
  create: () => 'none',
  duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 },
};

/**
 * `reducedMotion`: the system asks for less motion (`prefers-reduced-motion: reduce`). Then no MUI transition, no
 * ripple, and no CSS transition of our own (card overlays, the paged reader's page turn: inline styles, hence the
 * `!important`); spinners keep turning, they tell that something is in progress.
 */
export function createAppTheme(mode: ColorMode, direction: 'ltr' | 'rtl', reducedMotion = false): Theme {
  const ring = focusRing(mode);
  return createTheme({
    direction,
    ...(reducedMotion ? { transitions: NO_TRANSITIONS } : {}),
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          ':focus-visible': ring,
          ...(reducedMotion ? { '*, *::before, *::after': { transition: 'none !important' } } : {}),
        },
      },
      MuiButtonBase: {
        defaultProps: { disableRipple: reducedMotion },
        styleOverrides: { root: { '&.Mui-focusVisible': ring } },
      },
      MuiAppBar: {
        styleOverrides: { root: { '& .Mui-focusVisible, & :focus-visible': { outlineColor: 'currentColor' } } },
      },
    },
    palette: {
      mode,
      // Text on a coloured background (contained buttons, chips, badges) is white or black, whichever reaches AA's
      // 4.5:1; MUI's default of 3 put white on the dark theme's red error chips at 3.68:1.
      contrastThreshold: 4.5,
      ...(mode === 'light' ? LIGHT_STATUS : {}),
      primary: { main: mode === 'dark' ? COLORS.primaryDark : COLORS.primaryLight },
      secondary: { main: COLORS.secondary },
      accent: { main: COLORS.accent, contrastText: '#fff' },
      ...(mode === 'dark' ? { background: { default: '#121212', paper: '#1e1e1e' } } : {}),
    },
  });
}
