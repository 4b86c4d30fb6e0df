/**
 * Puts the page's Content-Security-Policy into the built index.html as the first element of <head> (ADR 0007,
 * server/plugins/contentSecurityPolicy.ts). A build-time plugin, not a tag in index.html: the dev server's React
 * refresh preamble is an inline script that the policy would block.
 */
import type { Plugin } from 'vite';
import { PAGE_POLICY, serializeCsp } from '../../server/plugins/contentSecurityPolicy';

/**
 * The Vite plugin.
 *
 * @returns a plugin that prepends `<meta http-equiv="Content-Security-Policy">` to <head> in `vite build`
 * @example
 * export default defineConfig({ plugins: [react(), cspMeta()] });
 */
export function cspMeta(): Plugin {
  return {
    name: 'member-dapp:csp-meta',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: serializeCsp(PAGE_POLICY) }, injectTo: 'head-prepend' },
      ],
    },
  };
}
