/**
 * Health (docs/API.md, "Health"): GET /api/health/live and GET /api/health/ready, for a load balancer or an
 * orchestrator. Their requests are logged at warn and above only (a balancer asks every second or two); readiness
 * logs when it changes, with the failing checks.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiCode } from '../../api-schema/codes';
import { healthLive, healthReady } from '../../api-schema/health';
import { envelopeOf } from '../../api-schema/primitives';
import type { ReadinessProbe } from '../health/readiness';

export interface HealthRouteOptions {
  readiness: ReadinessProbe;
}

/**
 * The health routes.
 *
 * @param app - plugin scope
 * @param options - the instance's readiness probe
 * @returns when registered
 * @example
 * await app.register(healthRoutes, { readiness });
 */
export const healthRoutes: FastifyPluginAsync<HealthRouteOptions> = async (app, { readiness }) => {
  const started = performance.now();
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.route({
    method: healthLive.method,
    url: healthLive.path,
    logLevel: 'warn',
    schema: { response: { 200: envelopeOf(healthLive.result) } },
    config: { access: healthLive.access },
    handler: async () => ({ code: ApiCode.ok, result: { live: true as const, uptimeSeconds: Math.floor((performance.now() - started) / 1000) } }),
  });

  let wasReady: boolean | undefined;
  routes.route({
    method: healthReady.method,
    url: healthReady.path,
    logLevel: 'warn',
    schema: { response: { 200: envelopeOf(healthReady.result), 503: envelopeOf(healthReady.result) } },
    config: { access: healthReady.access },
    handler: async (_request, reply) => {
      const result = await readiness.check();
      if (result.ready !== wasReady) {
        if (result.ready) app.log.info('ready');
        else app.log.warn({ failing: result.failing, checks: result.checks }, 'not ready');
        wasReady = result.ready;
      }
      if (result.ready) return { code: ApiCode.ok, result };
      return reply.code(503).send({ code: ApiCode.notReady, message: `Not ready: ${result.failing.join(', ')}`, result });
    },
  });
};
