/**
 * The site's robots.txt, emitted into the build (the server sends it as a file, not the SPA's HTML): pages may be
 * crawled, the API may not.
 */
import type { Plugin } from 'vite';

export const ROBOTS_TXT = 'User-agent: *\nAllow: /\nDisallow: /api/\n';

/**
 * The Vite plugin.
 *
 * @returns a plugin that writes robots.txt beside index.html in `vite build`
 * @example
 * export default defineConfig({ plugins: [react(), robotsTxt()] });
 */
export function robotsTxt(): Plugin {
  return {
    name: 'member-dapp:robots-txt',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'robots.txt', source: ROBOTS_TXT });
    },
  };
}
