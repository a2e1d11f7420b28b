import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `base: './'` keeps asset URLs relative, so the same build works under any context path.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 900 },
  server: {
    proxy: {
      '/api': 'http://localhost:25600',
      '/sse': 'http://localhost:25600',
      '/actuator': 'http://localhost:25600',
    },
  },
});
