/**
 * React Router's production build for `vite build`. react-router 7's package exports name only dist/development,
 * whatever the environment (remix-run/react-router#12532, #14102: "intended to be temporary"), so a production
 * bundle keeps its development warnings (ENABLE_DEV_WARNINGS = true) and the code behind them. The package ships
 * dist/production beside it, the same modules with those warnings off; this points the build at it. Dev server and
 * tests keep the development build and its warnings.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const packageDir = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));

/** The entries react-router-dom and our code import, and their production files. */
export const REACT_ROUTER_PRODUCTION_FILES: Record<string, string> = {
  'react-router': path.join(packageDir, 'dist/production/index.mjs'),
  'react-router/dom': path.join(packageDir, 'dist/production/dom-export.mjs'),
};

/**
 * The Vite plugin.
 *
 * @returns a plugin that resolves react-router to its production build in `vite build`
 * @example
 * export default defineConfig({ plugins: [react(), reactRouterProduction()] });
 */
export function reactRouterProduction(): Plugin {
  return {
    name: 'member-dapp:react-router-production',
    apply: 'build',
    config: () => ({
      resolve: {
        alias: Object.entries(REACT_ROUTER_PRODUCTION_FILES).map(([name, file]) => ({
          find: new RegExp(`^${name.replace('/', '\\/')}$`),
          replacement: file,
        })),
      },
    }),
  };
}
