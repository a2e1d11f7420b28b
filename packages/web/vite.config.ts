import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const COMPRESSIBLE = /\.(js|css|svg|json|txt|map)$/;

/**
 * Writes `name.br` and `name.gz` beside every compressible asset of the build, at the strongest settings (done once,
 * at build time): the server sends them as they are to browsers that accept them (@fastify/static `preCompressed`),
 * with no compression work per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'quire-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const assets = join(outDir, 'assets');
      for (const name of await readdir(assets)) {
        if (!COMPRESSIBLE.test(name)) continue;
        const file = join(assets, name);
        if ((await stat(file)).size < 1024) continue;
        const data = await readFile(file);
        const br = await promisify(brotliCompress)(data, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
        });
        const gz = await promisify(gzip)(data, { level: 9 });
        if (br.length < data.length) await writeFile(`${file}.br`, br);
        if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
      }
    },
  };
}

const CSP_NONCE = 'QUIRE_CSP_NONCE';
const EARLY_ENTRY = 'src/early/main.ts';

/**
 * Adds `src/early/main.ts` (the first screen's requests) to the page as a script of its own beside the app's: built
 * as a second entry, it does not wait for the app's chunk, and `async` runs it as soon as it has arrived, while the
 * app's much larger code is still on its way (issue 18).
 */
function earlyScript(): Plugin {
  return {
    name: 'quire-early-script',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const built = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.name === 'early');
        if (ctx.bundle && !built) throw new Error(`${EARLY_ENTRY} was not built as its own chunk`);
        const src = built ? `./${built.fileName}` : `/${EARLY_ENTRY}`;
        const attrs = { type: 'module', async: true, crossorigin: true, src, nonce: CSP_NONCE };
        return [{ tag: 'script', attrs, injectTo: 'head' }];
      },
    },
  };
}

type ModuleInfoOf = (id: string) => { isEntry: boolean; importers: readonly string[] } | null;
const atStart = new Map<string, boolean>();

/** Whether a module of the app is imported by the entry, directly or through others (not the entry itself). */
function loadedAtStart(id: string, getModuleInfo: ModuleInfoOf): boolean {
  const known = atStart.get(id);
  if (known !== undefined) return known;
  atStart.set(id, false); // an import cycle leads back here: undecided counts as not
  const info = getModuleInfo(id);
  const result =
    !!info && !info.isEntry && info.importers.some((i) => getModuleInfo(i)?.isEntry || loadedAtStart(i, getModuleInfo));
  atStart.set(id, result);
  return result;
}

// `base: './'` keeps asset URLs relative, so the same build works under any context path.
export default defineConfig({
  base: './',
  plugins: [react(), earlyScript(), precompress()],
  // The server puts a fresh nonce in place of this on every page it serves (NONCE_PLACEHOLDER in
  // packages/server/src/http/routes/web.ts): its Content-Security-Policy runs no script without it.
  html: { cspNonce: CSP_NONCE },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // The `app` chunk (below) holds what every start loads, the libraries it uses included: ~1.1 MB, 0.25 MB in brotli.
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      input: { index: 'index.html', early: EARLY_ENTRY },
      output: {
        // One chunk per interface language (its ~27 namespace files): choosing a language is one request.
        // English, the fallback, stays in the main bundle.
        manualChunks: (id, { getModuleInfo }) => {
          const code = /\/i18n\/locales\/([^/]+)\//.exec(id)?.[1];
          if (code && code !== 'en') return `locale-${code}`;
          if (!id.includes('/node_modules/')) {
            // The page's first script stays apart from the app's chunk, which it must not wait for (so no module of
            // the app imports from src/early/ but its types).
            if (id.includes('/src/early/')) return 'early';
            // The app's modules every start loads in one chunk: split by what the lazy screens share, they were
            // 14 requests beside the entry, queued on a browser's six connections to the server (issue 18).
            if (loadedAtStart(id, getModuleInfo)) return 'app';
            // The browse screens' cards, rows and grids, the dashboard's included: one request instead of seven.
            if (/\/src\/(components\/browse|features\/dashboard)\//.test(id)) return 'browse';
            return undefined;
          }
          // Libraries in a few chunks instead of ~70 small shared ones that a cold start fetched one after another
          // (six connections at a time); those only some screens need stay apart and load with them.
          if (/\/node_modules\/@readium\//.test(id)) return 'vendor-readium';
          if (/\/node_modules\/(@visx|d3-[^/]+|internmap)\//.test(id)) return 'vendor-charts';
          if (/\/node_modules\/(marked|dompurify)\//.test(id)) return 'vendor-markdown';
          return 'vendor';
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
