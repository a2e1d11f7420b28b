import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// From react-router/dom: the one that can commit a navigation at once (flushSync, see useBrowseState).
import { RouterProvider } from 'react-router/dom';
import type { QueryClient } from '@tanstack/react-query';
import { AppProviders, createQueryClient } from './app/providers';
import { createAppRouter } from './app/router';
import { warmUp } from './app/warmUp';
import { finishOAuth2Popup } from './features/auth/oauth2Popup';
import { switchLocale, wantedLocale } from './i18n';

// An OAuth2 login popup coming back from the server hands over to its opener and closes: nothing to render.
if (!finishOAuth2Popup()) {
  const queryClient = createQueryClient();
  warmUp(queryClient);
  // The chosen language's strings arrive before the first paint, so no screen flashes in English first.
  void switchLocale(wantedLocale()).finally(() => render(queryClient));
}

function render(queryClient: QueryClient) {
  const router = createAppRouter();

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}
