/**
 * GET /metrics (docs/operations.md, "Metrics and alerts"): the registry in Prometheus' text format, answered only to
 * the addresses METRICS_ALLOW names (default: this host's loopback). The peer is the connection's own address, never a
 * forwarded header: a client cannot claim to be the scraper. Anyone else gets what an unknown path gets (the SPA, or a
 * 404), so the endpoint's existence is not told to the internet.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppMetrics } from './registry';

/** METRICS_ALLOW unless set: loopback only. */
export const DEFAULT_METRICS_ALLOW = '127.0.0.0/8,::1/128';

/**
 * Reads METRICS_ALLOW: comma-separated addresses or CIDR ranges, IPv4 or IPv6.
 *
 * @param text - the setting
 * @returns the allow-list
 * @throws Error naming the first entry that is neither
 * @example
 * metricsAllowList('10.0.0.0/8, ::1').check('10.1.2.3', 'ipv4'); // true
 */
export function metricsAllowList(text: string): BlockList {
  const list = new BlockList();
  for (const entry of text.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const [address = '', bits] = entry.split('/');
    const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
    const prefix = bits === undefined ? undefined : Number(bits);
    const maxBits = type === 'ipv4' ? 32 : 128;
    if (!type || (prefix !== undefined && (!Number.isInteger(prefix) || prefix < 0 || prefix > maxBits))) {
      throw new Error(`METRICS_ALLOW: "${entry}" is not an address or a CIDR range`);
    }
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return list;
}

/**
 * Whether a peer address is on the list; an IPv4 peer seen on an IPv6 socket (`::ffff:10.0.0.1`) is checked as IPv4.
 *
 * @param list - the allow-list
 * @param peer - the connection's remote address
 * @returns true when allowed
 * @example
 * isAllowedPeer(metricsAllowList('127.0.0.1'), '::ffff:127.0.0.1'); // true
 */
export function isAllowedPeer(list: BlockList, peer: string | undefined): boolean {
  if (!peer) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peer)?.[1];
  if (mapped) return list.check(mapped, 'ipv4');
  return isIPv4(peer) ? list.check(peer, 'ipv4') : list.check(peer, 'ipv6');
}

/**
 * Registers GET /metrics.
 *
 * @param app - the app
 * @param metrics - its registry
 * @param allow - who may scrape
 * @example
 * registerMetricsRoute(app, metrics, metricsAllowList(DEFAULT_METRICS_ALLOW));
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: AppMetrics, allow: BlockList): void {
  app.route({
    method: 'GET',
    url: '/metrics',
    // A scraper asks every 15 s per instance: its requests are logged at warn and above only.
    logLevel: 'warn',
    config: { access: 'public' },
    handler: async (request, reply) => {
      if (!isAllowedPeer(allow, request.socket.remoteAddress)) return reply.callNotFound();
      const text = await metrics.registry.metrics();
      return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(text);
    },
  });
}
