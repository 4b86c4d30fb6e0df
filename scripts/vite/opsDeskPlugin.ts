/**
 * The operators' desk (/ops) is a build of its own: ops.html with src/ops/main.tsx, written into the same
 * dist/spa after the member app's build. A second input of the member build is not used: its code-splitting groups
 * put every entry's static imports in one `initial` chunk, so the member's /login would load the desk (or, split by
 * entry, a dozen files where it loads one). Built apart, not one byte of the member's build changes; the desk pays
 * with its own copy of React and the libraries, which only operators download.
 */
import { build } from 'vite';
import type { Connect, Plugin, ResolvedConfig } from 'vite';

/** Set while the desk's build runs, so the config knows which build it is and does not start another. */
export const OPS_BUILD_ENV = 'MEMBER_DAPP_OPS_BUILD';

/** Whether this Vite process is building the desk (the nested build started by opsDesk()). */
export const isOpsBuild = (): boolean => process.env[OPS_BUILD_ENV] === '1';

/** /ops and /ops/…: the desk's pages, served by ops.html. */
export const isOpsPath = (urlPath: string): boolean => urlPath === '/ops' || urlPath.startsWith('/ops/');

/**
 * The Vite plugin: after `vite build` wrote the member app, builds the desk into the same folder (its own manifest,
 * .vite/ops-manifest.json); in `vite` (dev), serves ops.html at /ops and /ops/*.
 *
 * @returns the plugin
 * @example
 * export default defineConfig({ plugins: [react(), opsDesk()] });
 */
export function opsDesk(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'member-dapp:ops-desk',
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      const rewrite: Connect.NextHandleFunction = (request, _response, next) => {
        const urlPath = (request.url ?? '/').split('?')[0] ?? '/';
        if (isOpsPath(urlPath) && !/\.[a-z0-9]+$/i.test(urlPath)) request.url = `/ops.html${(request.url ?? '').slice(urlPath.length)}`;
        next();
      };
      server.middlewares.use(rewrite);
    },
    closeBundle: {
      sequential: true,
      order: 'pre',
      async handler() {
        if (!config || config.command !== 'build' || isOpsBuild() || config.build.ssr) return;
        process.env[OPS_BUILD_ENV] = '1';
        try {
          await build({
            configFile: config.configFile,
            mode: config.mode,
            logLevel: config.logLevel,
            build: { emptyOutDir: false, manifest: '.vite/ops-manifest.json', rolldownOptions: { input: { ops: 'ops.html' } } },
          });
        } finally {
          delete process.env[OPS_BUILD_ENV];
        }
      },
    },
  };
}
