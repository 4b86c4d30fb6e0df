/**
 * The sites a sign-in message may name: the server's own, never the caller's. EIP-4361 binds a message to the
 * domain (and URI) of the site that asked for it; if the server took that domain from each request's Host, a
 * phishing site proxying to this server with its own Host would get its messages accepted. So the domains come
 * from configuration (PUBLIC_URL, SIWE_DOMAIN) or, for the embedded start without configuration, from the
 * addresses the server listens on (ADR 0007).
 */
import type { NetworkInterfaceInfo } from 'node:os';
import { isSiweDomain } from '../siwe/fields';

/** One allowed site: its authority as a browser sends it in Host (lower case), and, when known, its scheme. */
export interface SignInSite {
  /** host[:port], lower case, e.g. "member.example" or "192.168.1.20:8080". */
  host: string;
  /** "https:" or "http:" when configured through PUBLIC_URL; undefined accepts either. */
  protocol?: 'http:' | 'https:' | undefined;
}

/** A listening address as Fastify's app.addresses() gives it. */
export interface ListenAddress {
  address: string;
  family: string | number;
  port: number;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host part of an authority (brackets kept for IPv6), lower case. */
function hostnameOf(authority: string): string {
  const lower = authority.toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.split(':', 1)[0] ?? lower;
}

/** Formats an IP address and port as a Host header names it; port 80 is also named without it (browsers omit it). */
function authoritiesOf(address: string, port: number): string[] {
  const host = address.includes(':') ? `[${address.toLowerCase()}]` : address.toLowerCase();
  return port === 80 ? [host, `${host}:80`] : [`${host}:${port}`];
}

/**
 * Parses SIWE_DOMAIN: one or more comma-separated host[:port] values (no scheme, no user info).
 *
 * @param value - e.g. "member.example, member.example:8443"
 * @returns the sites in the given order
 * @throws Error naming the first invalid entry
 * @example
 * parseSiweDomains('member.example,192.168.1.20:8080'); // [{ host: 'member.example' }, { host: '192.168.1.20:8080' }]
 */
export function parseSiweDomains(value: string): SignInSite[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      if (entry.includes('@') || !isSiweDomain(entry)) throw new Error(`"${entry}" is not a host[:port]`);
      return { host: entry.toLowerCase() };
    });
}

/**
 * Parses PUBLIC_URL: one or more comma-separated http(s) origins the members open, such as https://member.example.
 * The scheme is kept, so a message for http:// is refused when the site is https://.
 *
 * @param value - e.g. "https://member.example"
 * @returns the sites in the given order
 * @throws Error naming the first entry that is not an http(s) origin without path, query or user info
 * @example
 * parsePublicUrls('https://member.example'); // [{ host: 'member.example', protocol: 'https:' }]
 */
export function parsePublicUrls(value: string): SignInSite[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`"${entry}" is not a URL`);
      }
      const isOrigin = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
      if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !isOrigin) throw new Error(`"${entry}" is not an http(s) origin`);
      return { host: url.host.toLowerCase(), protocol: url.protocol };
    });
}

/**
 * The sites of the embedded start: every address the server listens on at its port (every interface address
 * when it listens on 0.0.0.0 or ::), then localhost, 127.0.0.1 and [::1] at that port.
 *
 * @param addresses - app.addresses() after listen (a Unix socket path, which has no Host, is skipped)
 * @param interfaces - os.networkInterfaces()
 * @returns the sites, localhost first
 * @example
 * listenSites([{ address: '0.0.0.0', family: 'IPv4', port: 8080 }], os.networkInterfaces());
 * // localhost:8080, 127.0.0.1:8080, [::1]:8080, 192.168.1.20:8080, ...
 */
export function listenSites(addresses: readonly (ListenAddress | string)[], interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): SignInSite[] {
  const hosts: string[] = [];
  for (const listening of addresses) {
    if (typeof listening === 'string') continue;
    const { address, port } = listening;
    hosts.push(...authoritiesOf('localhost', port), ...authoritiesOf('127.0.0.1', port), ...authoritiesOf('::1', port));
    const unspecified = address === '0.0.0.0' || address === '::';
    const own = unspecified
      ? Object.values(interfaces)
          .flatMap((list) => list ?? [])
          // A link-local IPv6 address needs a zone id, which browsers do not accept in a URL.
          .filter((info) => !(info.family === 'IPv6' && info.scopeid !== undefined && info.scopeid !== 0))
          .map((info) => info.address)
      : [address];
    for (const ip of own) hosts.push(...authoritiesOf(ip, port));
  }
  return [...new Set(hosts)].map((host) => ({ host }));
}

/**
 * The allowlist of sign-in sites. Configured sites are the whole list. Without configuration (the embedded
 * start), the list is the server's listen addresses, filled in when it listens, and a loopback host (localhost,
 * 127.0.0.1, [::1]) is accepted at any port, so `npm run dev` (Vite on localhost:5173, proxying with its Host)
 * signs in too: a loopback origin is a page served on the member's own device, which a phishing site is not.
 */
export class SignInSites {
  private sites: SignInSite[];
  /** Whether the list came from configuration (PUBLIC_URL, SIWE_DOMAIN). */
  readonly configured: boolean;

  /**
   * @param configured - sites from configuration; undefined or empty for the embedded default
   * @example
   * const sites = new SignInSites(parseSiweDomains('member.example'));
   */
  constructor(configured: readonly SignInSite[] | undefined) {
    this.sites = configured ? [...configured] : [];
    this.configured = this.sites.length > 0;
  }

  /**
   * Adds the listen addresses (embedded default only; a configured list never grows).
   *
   * @param sites - from listenSites
   * @returns nothing
   * @example
   * sites.addListenSites(listenSites(app.addresses(), os.networkInterfaces()));
   */
  addListenSites(sites: readonly SignInSite[]): void {
    if (this.configured) return;
    const known = new Set(this.sites.map((site) => site.host));
    this.sites.push(...sites.filter((site) => !known.has(site.host)));
  }

  /**
   * The allowed site a request's host names, if any.
   *
   * @param host - request.host (Host, or X-Forwarded-Host behind a trusted proxy)
   * @returns the site, or undefined when the host is not allowed
   * @example
   * sites.match('member.example'); // { host: 'member.example', protocol: 'https:' }
   */
  match(host: string): SignInSite | undefined {
    const lower = host.toLowerCase();
    const listed = this.sites.find((site) => site.host === lower);
    if (listed) return listed;
    if (!this.configured && isSiweDomain(lower) && !lower.includes('@') && LOOPBACK_HOSTS.has(hostnameOf(lower))) return { host: lower };
    return undefined;
  }

  /**
   * The domain dappParam announces: the request's host when it is allowed, else the first site. Never a host
   * outside the allowlist.
   *
   * @param host - request.host
   * @returns a domain the server accepts
   * @example
   * sites.domainFor('evil.example'); // 'member.example'
   */
  domainFor(host: string): string {
    return this.match(host)?.host ?? this.sites[0]?.host ?? 'localhost';
  }

  /**
   * The sites in order, for logs and tests.
   *
   * @returns a copy of the list
   * @example
   * sites.list().map((site) => site.host);
   */
  list(): SignInSite[] {
    return this.sites.map((site) => ({ ...site }));
  }
}

/**
 * The configured sites: PUBLIC_URL's origins first, then SIWE_DOMAIN's hosts not already named.
 *
 * @param settings - PUBLIC_URL and SIWE_DOMAIN as set (either may be unset)
 * @returns the sites, or undefined when neither is set (the embedded default applies)
 * @throws Error when a value does not parse
 * @example
 * configuredSites({ publicUrl: 'https://member.example', siweDomain: undefined });
 */
export function configuredSites(settings: { publicUrl?: string | undefined; siweDomain?: string | undefined }): SignInSite[] | undefined {
  const sites = [...(settings.publicUrl ? parsePublicUrls(settings.publicUrl) : [])];
  for (const site of settings.siweDomain ? parseSiweDomains(settings.siweDomain) : []) {
    if (!sites.some((known) => known.host === site.host)) sites.push(site);
  }
  return sites.length > 0 ? sites : undefined;
}
