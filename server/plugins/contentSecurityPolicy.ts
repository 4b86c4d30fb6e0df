/**
 * The Content-Security-Policy, in one place for the server's header and the built index.html (ADR 0007).
 *
 * The page's own policy (what the SPA may load) is a <meta> in the built index.html, not a header: a meta policy is
 * in force only from where it is parsed, so a wallet that injects its provider by appending an inline <script> at
 * document start (Android WebView wallets, src/wallet/walletQuirks.ts) still runs, while everything the page loads
 * afterwards is held to the policy. What a meta cannot say (frame-ancestors) or should say before parsing
 * (object-src, base-uri, form-action) stays in the header of the HTML. Every other answer (API, assets, locales)
 * is never a page that wallets inject into, and carries the whole policy in its header.
 */

export type CspDirectives = Readonly<Record<string, readonly string[]>>;

/**
 * What the SPA may load: only its own scripts, styles and connections. The built index.html has no inline script
 * or style (Vite emits <script src> and <link rel="stylesheet">), React sets `style` through the DOM property, which
 * CSP does not govern, and antd-mobile's CSS is plain files bundled by Vite. The API and /locales are same-origin.
 * The favicon is a data: URL (index.html).
 */
export const PAGE_POLICY: CspDirectives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

/** The header of the SPA's HTML: the directives that do not govern scripts or styles, and framing refused. */
export const DOCUMENT_HEADER_POLICY: CspDirectives = {
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The header of every other answer: the page policy and framing refused. */
export const CONTENT_SECURITY_POLICY: CspDirectives = { ...PAGE_POLICY, 'frame-ancestors': ["'none'"] };

/**
 * Writes directives as a policy string.
 *
 * @param directives - name → sources
 * @returns e.g. "default-src 'self'; script-src 'self'"
 * @example
 * serializeCsp(DOCUMENT_HEADER_POLICY); // "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
 */
export function serializeCsp(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

/**
 * Tells whether an answer to this URL is never the SPA's HTML: the API, the locales and the fingerprinted assets.
 *
 * @param url - the request URL (path and query)
 * @returns true for /api, /locales and /assets paths
 * @example
 * isNeverDocument('/api/member/meInfo'); // true
 */
export function isNeverDocument(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return ['/api', '/locales', '/assets'].some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
