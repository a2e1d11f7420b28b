import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from './app/providers';
import { createAppRouter } from './app/router';
import { finishOAuth2Popup } from './features/auth/oauth2Popup';

// An OAuth2 login popup coming back from the server hands over to its opener and closes: nothing to render.
if (!finishOAuth2Popup()) render();

function render() {
  const queryClient = createQueryClient();
  const router = createAppRouter();

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}
