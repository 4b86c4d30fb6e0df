/**
 * CHAIN_RPC_URL's URLs as the server shows and accepts them. A provider's URL carries its API key in the path or the
 * query (https://bsc.example/v1/<key>) or as user info, so nothing the server prints or logs holds more than the
 * scheme, host and port; and a key sent over plain http to a remote host is readable on the way, so remote URLs must
 * be https (http only for loopback hosts: a local node).
 */
import type { Transport } from 'viem';

/**
 * A URL as the server may print it: scheme, host and port; "/…" when anything else was left out.
 *
 * @param url - an RPC URL
 * @returns the shown form
 * @example
 * redactUrl('https://bsc.example/v1/0123abcd?x=1'); // 'https://bsc.example/…'
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const origin = `${parsed.protocol}//${parsed.host}`;
    return parsed.href === `${origin}/` && !parsed.username && !parsed.password ? origin : `${origin}/…`;
  } catch {
    return '(not a URL)';
  }
}

/**
 * Whether a URL's host is this machine: 127.0.0.0/8, ::1 or localhost.
 *
 * @param hostname - URL hostname (IPv6 in brackets, as WHATWG URL gives it)
 * @returns true for a loopback host
 * @example
 * isLoopbackHost('127.0.0.1'); // true
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * What is wrong with an RPC URL, if anything: not an http(s) URL, or http to a host that is not loopback.
 *
 * @param url - one of CHAIN_RPC_URL's
 * @returns the problem (naming the URL redacted), or undefined
 * @example
 * rpcUrlProblem('http://node.example/key'); // 'http://node.example/… must be https (http only for a loopback host: ...)'
 */
export function rpcUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${redactUrl(url)}" is not a URL`;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return `${redactUrl(url)} is not an http(s) URL`;
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    return `${redactUrl(url)} must be https (http only for a loopback host: 127.0.0.0/8, ::1, localhost)`;
  }
  return undefined;
}

/** The forms a URL takes in error texts: as given, as WHATWG URL writes it, and without user info (viem's). */
function urlForms(url: string): string[] {
  const forms = new Set([url]);
  try {
    const parsed = new URL(url);
    forms.add(parsed.href);
    parsed.username = '';
    parsed.password = '';
    forms.add(parsed.href);
    forms.add(parsed.href.replace(/\/$/, ''));
  } catch {
    // Not a URL: only as given.
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * A text with every form of the URLs replaced by their redacted form.
 *
 * @param text - an error message, a stack
 * @param urls - the RPC URLs
 * @returns the text without their paths, queries and user info
 * @example
 * redactUrlsIn('URL: https://bsc.example/v1/key', ['https://bsc.example/v1/key']); // 'URL: https://bsc.example/…'
 */
export function redactUrlsIn(text: string, urls: readonly string[]): string {
  let redacted = text;
  for (const url of urls) {
    const shown = redactUrl(url);
    for (const form of urlForms(url)) if (form !== shown) redacted = redacted.split(form).join(shown);
  }
  return redacted;
}

const TEXT_FIELDS = ['message', 'shortMessage', 'details', 'stack', 'url'] as const;

/** An error (and its causes) with the URLs redacted in place: viem's HTTP errors put the URL in their text and `url`. */
function redactError(error: unknown, urls: readonly string[]): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const fields = current as Record<string, unknown>;
    for (const field of TEXT_FIELDS) {
      const value = fields[field];
      if (typeof value === 'string') fields[field] = redactUrlsIn(value, urls);
    }
    if (Array.isArray(fields.metaMessages)) fields.metaMessages = fields.metaMessages.map((line: unknown) => (typeof line === 'string' ? redactUrlsIn(line, urls) : line));
    current = fields.cause;
  }
  return error;
}

/**
 * A transport whose errors never carry its URL's path, query or user info (they reach the logs: the watcher's and
 * the payer's failed rounds, a failed start). The errors keep their types, so viem's `fallback` treats them alike.
 *
 * @param url - the transport's URL
 * @param transport - viem's http transport of it
 * @returns the transport
 * @example
 * const transport = redactingTransport(url, http(url));
 */
export function redactingTransport(url: string, transport: Transport): Transport {
  return (params) => {
    const inner = transport(params);
    const request: typeof inner.request = async (args, options) => {
      try {
        return await inner.request(args, options);
      } catch (error) {
        throw redactError(error, [url]);
      }
    };
    return { ...inner, request };
  };
}
