/**
 * Security headers on every answer, set in one place (ADR 0007): helmet for the Content-Security-Policy (whose
 * directives are in contentSecurityPolicy.ts: the SPA's HTML gets the part a <meta> cannot carry) and the
 * usual hardening headers, plus what helmet does not do the way we need: a Permissions-Policy, HSTS only
 * for requests that came over HTTPS, and Cache-Control: no-store on every API answer (tokens, nonces and member
 * data must not sit in a shared or browser cache). Inert files (the build's scripts and stylesheets, raster images)
 * carry only what governs them (nosniff, Cross-Origin-Resource-Policy): isInertFile.
 */
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import { CONTENT_SECURITY_POLICY, DOCUMENT_HEADER_POLICY, isNeverDocument, isInertFile } from './contentSecurityPolicy';
import type { CspDirectives } from './contentSecurityPolicy';

/**
 * Powerful features the app never uses, turned off for it and for anything it could embed. Only names Chromium
 * knows: an unknown one is a console error on every page. clipboard-write stays on (the invite link is copied).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** One year, the HSTS preload lists' minimum; sent only over HTTPS, where it means something. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

function isApiPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/api' || path.startsWith('/api/');
}

/**
 * Installs the headers on the root instance, so every answer carries them: API, SPA files, locales, 404s and
 * errors (the hook runs in onRequest, before any handler can fail).
 *
 * helmet itself rather than @fastify/helmet: the plugin builds a new helmet middleware, and parses the CSP
 * directives again, for every request (about 4 % of the server's time under the ledger bench). The middleware is
 * built here once and applied to the raw response, which is what the plugin does with the one it builds.
 *
 * @param app - the root instance
 * @returns nothing; the hook is installed
 * @example
 * installSecurityHeaders(app);
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  // directives null: an inert file (isInertFile), which no policy, framing refusal or referrer policy of its own
  // would govern (about 120 bytes on each of a first visit's scripts, stylesheet and icon).
  const helmetWith = (directives: CspDirectives | null, isPage: boolean) =>
    helmet({
      contentSecurityPolicy: directives !== null && {
        // Helmet's defaults would add upgrade-insecure-requests, which breaks the app opened over plain HTTP at
        // the machine's LAN address (npm start on a phone), and allow https: styles; list every directive instead.
        useDefaults: false,
        directives: {
          // The HTML's header leaves default-src to the page's <meta>: helmet must be told that is meant.
          'default-src': helmet.contentSecurityPolicy.dangerouslyDisableDefaultSrc,
          ...Object.fromEntries(Object.entries(directives).map(([name, values]) => [name, [...values]])),
        },
      },
      // Set by the hook below, for HTTPS requests only.
      strictTransportSecurity: false,
      frameguard: directives !== null && { action: 'deny' },
      // Headers for browsers members no longer have (IE's download prompt, Flash and Acrobat's cross-domain
      // files, the XSS auditor every engine removed): ~90 bytes on each of the 15 answers of a sign-in.
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
      referrerPolicy: directives !== null && { policy: 'no-referrer' },
      // Headers that govern a browsing context, read only on a page: a script, style, locale or JSON answer
      // would carry them for nothing (about 100 bytes on each answer of a sign-in).
      crossOriginOpenerPolicy: isPage,
      originAgentCluster: isPage,
      xDnsPrefetchControl: isPage,
    });
  const forAnswers = helmetWith(CONTENT_SECURITY_POLICY, false);
  const forInertFiles = helmetWith(null, false);
  // Any other GET may be the SPA's HTML (the history fallback), whose page policy is the <meta> of index.html.
  const forDocuments = helmetWith(DOCUMENT_HEADER_POLICY, true);

  app.addHook('onRequest', (request, reply, done) => {
    const neverPage = isNeverDocument(request.url);
    // A Permissions-Policy applies to the page (and what it frames); on the page's scripts and data it says nothing.
    if (!neverPage) reply.header('permissions-policy', PERMISSIONS_POLICY);
    // request.protocol is the socket's, or X-Forwarded-Proto when TRUST_PROXY trusts the proxy that sent it.
    if (request.protocol === 'https') reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    if (isApiPath(request.url)) reply.header('cache-control', 'no-store');
    const applyHelmet = !neverPage ? forDocuments : isInertFile(request.url) ? forInertFiles : forAnswers;
    applyHelmet(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
  });
}
