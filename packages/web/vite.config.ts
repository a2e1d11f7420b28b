import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `base: './'` keeps asset URLs relative, so the same build works under any context path.
export default defineConfig({
  base: './',
  plugins: [react()],
  // The server puts a fresh nonce in place of this on every page it serves (NONCE_PLACEHOLDER in
  // packages/server/src/http/routes/web.ts): its Content-Security-Policy runs no script without it.
  html: { cspNonce: 'QUIRE_CSP_NONCE' },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    rollupOptions: {
      output: {
        // One chunk per interface language (its ~27 namespace files): choosing a language is one request.
        // English, the fallback, stays in the main bundle.
        manualChunks: (id) => {
          const code = /\/i18n\/locales\/([^/]+)\//.exec(id)?.[1];
          return code && code !== 'en' ? `locale-${code}` : undefined;
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:25600',
      '/sse': 'http://localhost:25600',
      '/actuator': 'http://localhost:25600',
    },
  },
});
