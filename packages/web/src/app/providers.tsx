import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { QueryCache, QueryClient, QueryClientProvider, type QueryClientConfig } from '@tanstack/react-query';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { CacheProvider } from '@emotion/react';
import createCache from '@emotion/cache';
import rtlPlugin from 'stylis-plugin-rtl';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import i18n, { switchLocale, wantedLocale } from '../i18n';
import { ApiError } from '../api/client';
import { authKeys } from '../api/auth';
import { usePreferences } from './preferences';
import { createAppTheme, resolveColorMode } from './theme';

/**
 * The app's QueryClient. A 401 on any query means the session is gone: the current user becomes null and the
 * guards send the user to startup (then login).
 */
export function createQueryClient(config: QueryClientConfig = {}): QueryClient {
  const client: QueryClient = new QueryClient({
    ...config,
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (error instanceof ApiError && error.status === 401 && query.queryHash !== JSON.stringify(authKeys.me)) {
          client.setQueryData(authKeys.me, null);
        }
      },
    }),
    defaultOptions: {
      ...config.defaultOptions,
      queries: {
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
        ...config.defaultOptions?.queries,
      },
    },
  });
  return client;
}

const ltrCache = createCache({ key: 'mui' });
const rtlCache = createCache({ key: 'muirtl', stylisPlugins: [rtlPlugin] });

/** Whether the system's media feature `query` matches, following its changes. */
function useSystemMedia(query: string): boolean {
  const media = useMemo(
    () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(query) : undefined),
    [query],
  );
  const [matches, setMatches] = useState(() => media?.matches ?? false);
  useEffect(() => {
    if (!media) return;
    const onChange = (e: MediaQueryListEvent) => setMatches(e.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, [media]);
  return matches;
}

/** The system asks for less motion: no page-turn animation, no transitions (WCAG 2.3.3). */
export const usePrefersReducedMotion = () => useSystemMedia('(prefers-reduced-motion: reduce)');

/** Follows the chosen locale (or the browser's); the document's lang and dir follow i18n (see i18n/index.ts). */
function useLocaleSync() {
  const locale = usePreferences((p) => p.locale);
  useEffect(() => {
    void switchLocale(wantedLocale());
  }, [locale]);
}

function ThemedApp({ children }: { children: ReactNode }) {
  useLocaleSync();
  const { i18n: instance } = useTranslation();
  const direction = instance.dir(instance.language) === 'rtl' ? 'rtl' : 'ltr';
  const preference = usePreferences((p) => p.theme);
  const systemDark = useSystemMedia('(prefers-color-scheme: dark)');
  const reducedMotion = usePrefersReducedMotion();
  const mode = resolveColorMode(preference, systemDark);
  const theme = useMemo(() => createAppTheme(mode, direction, reducedMotion), [mode, direction, reducedMotion]);
  return (
    <CacheProvider value={direction === 'rtl' ? rtlCache : ltrCache}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </CacheProvider>
  );
}

/** Query cache, translations, theme and direction: everything a screen needs around it, in tests too. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <ThemedApp>{children}</ThemedApp>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
