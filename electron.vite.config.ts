import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';

/** Native modules: loaded from node_modules at run time, never bundled. */
const nativeModules = ['better-sqlite3', 'keytar'];

/** The sandbox exchange, which demo mode loads with import() only when it starts. */
const sandboxEntry = resolve(__dirname, 'electron/sandbox/index.ts');

/**
 * Keeps the sandbox out of browser mode's one file: its import() is left as a require of
 * out/serve/sandbox.cjs (built on its own below), so a profile on a real exchange never loads it.
 */
function sandboxApart(): Plugin {
  return {
    name: 'spotfolio:sandbox-apart',
    // Before Vite's own resolver, which would otherwise settle the import first.
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !source.includes('sandbox')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved?.id !== sandboxEntry) return null;
      // The file the second build below writes beside cli.cjs.
      return { id: './sandbox.cjs', external: true };
    },
  };
}

/**
 * Browser mode's command (electron/serve/cli.ts, run by `npm start` without Electron and by
 * `npm run serve`) built to out/serve/, after the main build so `electron-vite build` makes it
 * too. Node loading the TypeScript through tsx took over a second before the first line; a
 * bundle with the pure-JS dependencies inside loads in a fraction of that (resolving zod's and
 * undici's many files one by one costs more than reading one big file).
 */
function browserModeBuild(): Plugin {
  let skip = false;
  return {
    name: 'spotfolio:browser-mode',
    apply: 'build',
    configResolved(config) {
      // `electron-vite dev` builds main too (and again on every change); browser mode is not
      // part of that loop.
      skip = config.mode === 'development';
    },
    buildStart() {
      skip ||= this.meta.watchMode;
    },
    async closeBundle() {
      if (skip) return;
      await build({
        configFile: false,
        root: __dirname,
        logLevel: 'warn',
        plugins: [sandboxApart()],
        ssr: { target: 'node', noExternal: true, external: nativeModules },
        build: {
          ssr: true,
          outDir: resolve(__dirname, 'out/serve'),
          emptyOutDir: true,
          target: 'node20',
          // Stack traces in the log stay readable; minifying saves little load time here.
          minify: false,
          reportCompressedSize: false,
          copyPublicDir: false,
          rollupOptions: {
            input: { cli: resolve(__dirname, 'electron/serve/cli.ts') },
            external: nativeModules,
            // One CommonJS file, so scripts/start.mjs can load it through vm.Script with V8's code
            // cache (see there). The app's modules stay lazily evaluated: cli.ts imports them
            // only after the host is up. import() becomes require(): a script compiled through
            // vm has no module loader for import().
            output: {
              format: 'cjs',
              entryFileNames: '[name].cjs',
              codeSplitting: false,
              dynamicImportInCjs: false,
            },
          },
        },
      });
      await Promise.all([
        apartBuild({ sandbox: sandboxEntry }, 'out/serve'),
        ...Object.entries(threadEntries).flatMap(([name, entry]) => [
          apartBuild({ [name]: entry }, 'out/serve'),
          apartBuild({ [name]: entry }, 'out/main'),
        ]),
      ]);
    },
  };
}

/**
 * The app's worker threads: the ledger's reader (electron/ledger/trade-readers.ts) and the
 * store's WAL checkpoints (electron/store/wal-checkpoints.ts).
 */
const threadEntries = {
  'trade-reader': resolve(__dirname, 'electron/ledger/trade-reader.ts'),
  'checkpoint-thread': resolve(__dirname, 'electron/store/checkpoint-thread.ts'),
};

/**
 * A script of its own beside a bundle, as `outDir`/[name].cjs: one CommonJS file, the native
 * modules loaded from node_modules. The sandbox (browser mode's demo loads it only when it starts)
 * and the app's worker threads (each started beside the desktop app's out/main and browser mode's
 * out/serve).
 */
function apartBuild(input: Record<string, string>, outDir: string) {
  return build({
    configFile: false,
    root: __dirname,
    logLevel: 'warn',
    ssr: { target: 'node', noExternal: true, external: nativeModules },
    build: {
      ssr: true,
      outDir: resolve(__dirname, outDir),
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      reportCompressedSize: false,
      copyPublicDir: false,
      rollupOptions: {
        input,
        external: nativeModules,
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  });
}

/**
 * The page's entry (main.tsx) sends the first screen's calls and then loads React and the app
 * (root.tsx) with import(). A modulepreload link for that chunk, and the chunks it imports, lets
 * the browser fetch and compile it beside the entry, and browser mode reads it ahead with the
 * page's other files (electron/serve/static.ts), before the app's start takes the event loop.
 */
function preloadAppRoot(): Plugin {
  return {
    name: 'spotfolio:preload-app-root',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const root = chunks.find((chunk) =>
          chunk.facadeModuleId?.endsWith('/renderer/src/root.tsx'),
        );
        if (!root) throw new Error('The renderer build has no chunk for renderer/src/root.tsx');
        const entry = chunks.find((chunk) => chunk.isEntry);
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName) || fileName === entry?.fileName) return;
          files.add(fileName);
          const chunk = chunks.find((candidate) => candidate.fileName === fileName);
          for (const imported of chunk?.imports ?? []) visit(imported);
        };
        visit(root.fileName);
        return [...files].map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

export default defineConfig({
  main: {
    plugins: [browserModeBuild()],
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: { input: { main: resolve(__dirname, 'electron/main.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require nothing but 'electron': bundle shared/ into it.
      externalizeDeps: false,
      // A sandboxed preload must be CommonJS.
      rollupOptions: {
        input: { preload: resolve(__dirname, 'electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [react(), preloadAppRoot()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // electron-vite leaves the renderer unminified; minified, Chromium parses it in half the time.
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
