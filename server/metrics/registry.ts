/**
 * The instance's metrics (docs/operations.md, "Metrics and alerts"), in Prometheus' text format at GET /metrics
 * (server/metrics/route.ts): one prom-client registry per app, not the library's global one, so every app a test
 * builds counts its own requests. Names follow Prometheus' conventions: the `member_dapp_` prefix, base units
 * (seconds, bytes), `_total` on counters. Counters are this instance's (Prometheus sums the instances); the business
 * gauges (server/metrics/business.ts) read the shared database, so every instance reports the same figures.
 */
import { Counter, Histogram, Registry } from 'prom-client';

/** Every metric's name starts with this. */
export const METRIC_PREFIX = 'member_dapp_';

/** Request latency buckets, seconds: a member call is a few milliseconds, a sign-in tens, a slow one seconds. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface AppMetrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status_code'>;
  httpDuration: Histogram<'method' | 'route'>;
  signIns: Counter<'wallet'>;
  signInsFailed: Counter<'wallet' | 'code'>;
}

/**
 * Creates the registry and the request and sign-in metrics (the business gauges join it as the chain starts).
 *
 * @returns the metrics
 * @example
 * const metrics = createAppMetrics();
 * metrics.signIns.inc({ wallet: 'metamask' });
 */
export function createAppMetrics(): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: `${METRIC_PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by method, route (its template) and status code',
      labelNames: ['method', 'route', 'status_code'],
      registers,
    }),
    httpDuration: new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'Time from a request received to its answer sent, by method and route',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    signIns: new Counter({ name: `${METRIC_PREFIX}sign_ins_total`, help: 'Member sign-ins that succeeded, by wallet', labelNames: ['wallet'], registers }),
    signInsFailed: new Counter({
      name: `${METRIC_PREFIX}sign_ins_failed_total`,
      help: 'Member sign-ins refused, by wallet and the envelope code answered',
      labelNames: ['wallet', 'code'],
      registers,
    }),
  };
}
