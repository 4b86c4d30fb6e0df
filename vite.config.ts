/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import pxtorem from 'postcss-pxtorem';
import { buildInputs } from './scripts/vite/buildInputsPlugin';
import LongestFirstSequencer from './tests/support/longestFirstSequencer';
import { cspMeta } from './scripts/vite/cspMetaPlugin';
import { precompress } from './scripts/vite/precompressPlugin';
import { reactRouterProduction } from './scripts/vite/reactRouterProductionPlugin';
import { robotsTxt } from './scripts/vite/robotsTxtPlugin';
import { atlasDevServer } from './scripts/vite/atlasPlugin';
import { isOpsBuild, opsDesk } from './scripts/vite/opsDeskPlugin';

/** Unit files that need a module graph of their own (they mock a module, or test when one loads). */
const isolatedUnitFiles = ['tests/server/inviteCodeCollision.test.ts', 'src/app/selectors.test.ts', 'src/api/contractLoader.test.ts'];

// One config for the SPA build and for the three test projects (unit, ui, e2e).
export default defineConfig({
  plugins: [react(), reactRouterProduction(), cspMeta(), robotsTxt(), buildInputs({ merge: isOpsBuild() }), opsDesk(), precompress(), atlasDevServer()],
  publicDir: false,
  css: {
    postcss: {
      plugins: [
        // The design is drawn at 375 px and the layout sets 1rem = a tenth of the width (src/layout/viewport.ts),
        // so every px in our CSS and in antd-mobile's becomes rem at 37.5 px each. 1px hairlines stay px.
        pxtorem({ rootValue: 37.5, propList: ['*'], minPixelValue: 2, unitPrecision: 6, selectorBlackList: [/^html$/] }),
      ],
    },
  },
  build: {
    outDir: 'dist/spa',
    sourcemap: false,
    manifest: true,
    // The entry is one file and Vite's preload helper picks modulepreload or preload by itself, so the polyfill for
    // <link rel="modulepreload"> in the HTML has nothing to do: 225 bytes of the entry, brotli.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry loads statically is one file: the automatic split of the vendor code between
            // the entry and the lazy routes cost ~2 KiB gzip over 9 requests, and kept the bundler from dropping
            // unused contract schemas across chunk boundaries. Modules shared by lazy routes are split by the
            // bundler as it sees fit: one "shared" file for them made /login load the list screens' code (22 KiB).
            { name: 'initial', tags: ['$initial'] },
            // zod, as far as the contract uses it: evaluated in a task of its own before the schemas
            // (src/api/contractLoader.ts).
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
            // antd-mobile's animation stack (Popup, Toast, Dialog): one file every sheet shares, cached once.
            { name: 'motion', test: /[\\/]node_modules[\\/](@react-spring|@use-gesture)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    // Keep the page's Host header: the server checks the sign-in message's domain against it (Vite's string
    // shorthand would set changeOrigin and send 127.0.0.1:8080, refusing every sign-in with 1005).
    proxy: {
      // '/api/', not '/api': the source folder /api-schema/ is the dev server's own.
      '/api/': { target: 'http://127.0.0.1:8080', changeOrigin: false },
      '/locales': { target: 'http://127.0.0.1:8080', changeOrigin: false },
      // The goods' images, the app's icons and its manifest (server/plugins/appIdentity.ts) are the server's too.
      '/media/': { target: 'http://127.0.0.1:8080', changeOrigin: false },
      '/manifest.webmanifest': { target: 'http://127.0.0.1:8080', changeOrigin: false },
      // The development chain, for the demo wallet (src/dev/devChainFaucet.ts): the page may only reach its origin.
      '/dev-chain': { target: `http://127.0.0.1:${process.env.DEV_CHAIN_PORT ?? '8545'}`, changeOrigin: true, rewrite: () => '/' },
    },
  },
  test: {
    reporters: ['default', './tests/support/summaryReporter.ts'],
    // Two files at a time on CI's two cores (vitest's default there is one: cores - 1). Most e2e time is waiting on
    // Chromium and the server, so the visual check and the journeys run beside each other and beside the rest. Three
    // were tried (ADR 0026): the cores were then saturated (load 9-13), files ran up to twice as long, a UI path
    // passed its timeout, and the run took 1,181 s, no faster.
    maxWorkers: 2,
    // Node 25 and later have a localStorage of their own (Web Storage, on by default), undefined without
    // --localstorage-file, which hides jsdom's in the test files that run in jsdom (ADR 0027).
    execArgv: ['--no-experimental-webstorage'],
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          // One module graph per worker instead of one per file: importing the server, zod's contract and viem again
          // for each of ~80 files cost a quarter of the project's time on CI's two cores. Files that replace a
          // module (vi.mock) or watch one load run isolated below.
          isolate: false,
          // With the root's (extends: true joins the lists): a young generation of 32 MB a half, V8's default being 16.
          // The server suites allocate fast (requests, rows, zod), and fewer scavenges cut the project's worker CPU by
          // 13-15% (46 -> 39-40 CPU-s on five server files, three runs each). The UI and e2e projects gained nothing
          // measurable that way, so they keep the default.
          execArgv: ['--max-semi-space-size=32'],
          // Every *.test.ts: a module's own beside it, and every area of tests/ (tests/README.md).
          include: ['src/**/*.test.ts', 'machines/**/*.test.ts', 'server/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: isolatedUnitFiles,
          // The compiled server for the suites that start it as a process, and the empty PGlite cluster new databases
          // load instead of running initdb (tests/server/support/unitGlobalSetup.ts).
          globalSetup: ['tests/server/support/unitGlobalSetup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'unit-isolated', environment: 'node', include: isolatedUnitFiles, globalSetup: ['tests/server/support/unitGlobalSetup.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          environment: 'jsdom',
          // A generated UI path replays up to a dozen steps in jsdom: 1-3 s alone, past vitest's 5 s default when the
          // other workers load CI's two cores (seen: addressForm's save path at 5.07 s).
          testTimeout: 20_000,
          // One module graph per worker here too (React, antd-mobile, the app): 72 -> 38 s for the project alone, and
          // the same with files shuffled. Each file still gets its own jsdom; none replaces a module (vi.mock).
          isolate: false,
          include: ['tests/ui/**/*.test.tsx', 'src/**/*.test.tsx'],
          setupFiles: ['tests/ui/support/setupDom.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          // Each file starts its own server and Chromium, but the modules behind them (the server, PGlite, zod's
          // contract, playwright-core) load once per worker: 40 s of imports for 14 files before.
          isolate: false,
          include: ['tests/e2e/**/*.spec.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two journeys at a time where a file runs them concurrently (walletBrowsers.spec.ts): each mostly waits on
          // the page, and more than two pages loading at once beside the other worker starve CI's two cores.
          maxConcurrency: 2,
          globalSetup: ['tests/e2e/support/e2eGlobalSetup.ts'],
        },
      },
    ],
  },
});
