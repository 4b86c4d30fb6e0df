/** Per-route request counts and latency histograms (server/metrics/registry.ts), recorded as each answer is sent. */
import type { FastifyInstance } from 'fastify';
import type { AppMetrics } from './registry';

/**
 * Installs the hook that records every answered request.
 *
 * @param app - the app
 * @param metrics - its metrics
 * @example
 * installHttpMetrics(app, metrics);
 */
export function installHttpMetrics(app: FastifyInstance, metrics: AppMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    // The route's template, never the URL itself (a member's address in a path would be a series per member);
    // what no route matched is one label.
    const route = request.routeOptions.url ?? 'unmatched';
    const method = request.method;
    metrics.httpRequests.inc({ method, route, status_code: String(reply.statusCode) });
    metrics.httpDuration.observe({ method, route }, reply.elapsedTime / 1000);
  });
}
