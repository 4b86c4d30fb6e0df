/**
 * The Content-Security-Policy, in one place for the server's header and the built index.html (ADR 0007).
 *
 * The page's own policy (what the SPA may load) is a <meta> in the built index.html, not a header: a meta policy is
 * in force only from where it is parsed, so a wallet that injects its provider by appending an inline <script> at
 * document start (Android WebView wallets, src/wallet/walletQuirks.ts) still runs, while everything the page loads
 * afterwards is held to the policy. What a meta cannot say (frame-ancestors) or should say before parsing
 * (object-src, base-uri, form-action) stays in the header of the HTML. Every other answer (API, assets, locales)
 * is never a page: its header lets nothing load or run, should one be opened as a document.
 */

export type CspDirectives = Readonly<Record<string, readonly string[]>>;

/**
 * What the SPA may load: only its own scripts, styles and connections. The built index.html has no inline script
 * or style (Vite emits <script src> and <link rel="stylesheet">), React sets `style` through the DOM property, which
 * CSP does not govern, and antd-mobile's CSS is plain files bundled by Vite. The API and /locales are same-origin.
 * So are the icons and the web app manifest index.html links (server/plugins/appIdentity.ts): img-src 'self' allows
 * the icons, and manifest-src, not listed, falls back to default-src 'self' (tests/e2e/appFace.spec.ts loads both
 * under this policy).
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

/**
 * The header of every answer that is never the page (API, locales, fingerprinted assets): nothing may load or run
 * if one is opened as a document, and none may be framed (OWASP's REST Security Cheat Sheet). A script's or a
 * style's own CSP header governs nothing (the page's policy does), so the page policy is not repeated on each of
 * them: about 250 bytes saved on each of a sign-in's 16 answers.
 */
export const CONTENT_SECURITY_POLICY: CspDirectives = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] };

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
 * Tells whether an answer to this URL is never the SPA's HTML: the API, the locales, the fingerprinted assets, the
 * goods' images and the app's icons (/media), and the web app manifest.
 *
 * @param url - the request URL (path and query)
 * @returns true for /api, /locales, /assets and /media paths, and /manifest.webmanifest
 * @example
 * isNeverDocument('/api/member/meInfo'); // true
 */
export function isNeverDocument(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/manifest.webmanifest' || ['/api', '/locales', '/assets', '/media'].some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * Tells whether an answer to this URL is an inert file: one of the build's scripts or stylesheets (/assets/*.js and
 * *.css), or a raster image under /media (PNG, JPEG, WebP, GIF). The page runs a script and applies a stylesheet under
 * its own policy, framing refusal and referrer policy; opened on their own such files are text or a picture (nosniff
 * holds them to their type), never a page that could run anything. So the headers that govern a document would say
 * nothing on them: they carry nosniff and Cross-Origin-Resource-Policy only (ADR 0030). SVG is
 * not inert (an SVG document can run script) and keeps the short set.
 *
 * @param url - the request URL (path and query)
 * @returns true for /assets/….js, /assets/….css and /media/….png (.jpg, .jpeg, .webp, .gif)
 * @example
 * isInertFile('/assets/index-abc123.js'); // true
 */
export function isInertFile(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return (path.startsWith('/assets/') && /\.(js|css)$/.test(path)) || (path.startsWith('/media/') && /\.(png|jpe?g|webp|gif)$/.test(path));
}
