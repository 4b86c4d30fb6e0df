/**
 * The operators' identity routes (docs/API.md, "Operators"): sign-in, who am I, logout, operators and roles, API keys
 * and the audit log with its CSV export. Always registered: the access hook lets in only operators' sessions and
 * keys, by the role each call names. Every change writes an audit row.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { OperatorRole } from '../../api-schema/endpoint';
import { endpoints } from '../../api-schema/endpoints';
import { auditQuerySchema } from '../../api-schema/ops';
import { RoleRequiredError } from '../errors';
import { checksummedAddress } from '../members/members';
import { holdsRole, requireOperator } from '../ops/actor';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRow } from '../ops/apiKeys';
import { auditContextOf, auditOf, recordAudit } from '../ops/audit';
import { auditCsv, readAudit } from '../ops/auditQuery';
import { listOperators, putOperator, removeOperator, type OperatorRow } from '../ops/operators';
import { endOperatorSession, issueOperatorNonce, signInOperator } from '../ops/signIn';
import { expectedSite, type RouteDeps } from './deps';
import { registerHandlers } from './endpoint';

/** Rows the CSV export reads at a time. */
const CSV_PAGE = 500;

function operatorOut(row: OperatorRow) {
  return { address: row.address, roles: row.roles, addedAt: row.addedAt.toISOString(), addedBy: row.addedBy };
}

function apiKeyOut(row: ApiKeyRow) {
  return {
    id: row.id,
    label: row.label,
    roles: row.roles,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/**
 * The operators' identity routes.
 *
 * @param app - plugin scope
 * @param deps - database, clock, sign-in sites, rate limits, chain
 * @returns when registered
 * @example
 * await app.register(opsRoutes, deps);
 */
export const opsRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  // After the access hook, before the body is read: a key is made by a person at the desk, never by another key, so
  // a leaked key cannot mint more (1006, whatever the body).
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.url === endpoints.opsKeyCreate.path && request.operator?.via !== 'session') throw new RoleRequiredError();
  });
  registerHandlers(
    app,
    {
      opsLoginNonce: async ({ query }) => issueOperatorNonce(deps.db, checksummedAddress(query.address, 'address'), deps.now()),

      opsSignIn: async ({ body, request }) => {
        const site = expectedSite(deps, request);
        const now = deps.now();
        const signedIn = await signInOperator(deps.db, {
          message: body.message,
          signature: body.signature,
          expectedDomain: site?.host,
          expectedProtocol: site?.protocol,
          chain: deps.chain?.chain.client,
          now,
        });
        const actor = { address: signedIn.operator.address, roles: signedIn.operator.roles, via: 'session' as const };
        await recordAudit(deps.db, auditOf(request, now, { action: 'opsSignIn', target: actor.address, after: { expiresAt: signedIn.expiresAt } }, actor));
        return { token: signedIn.token, expiresAt: signedIn.expiresAt.toISOString(), operator: signedIn.operator };
      },

      opsMe: async ({ request }) => {
        const { address, roles, via } = requireOperator(request);
        return { address, roles: [...roles], via };
      },

      opsLogout: async ({ request }) => {
        const actor = requireOperator(request);
        if (actor.via !== 'session') return undefined;
        const now = deps.now();
        if (await endOperatorSession(deps.db, actor.credentialId, now)) {
          await recordAudit(deps.db, auditOf(request, now, { action: 'opsLogout', target: actor.address }));
        }
        return undefined;
      },

      opsOperators: async () => ({ operators: (await listOperators(deps.db)).map(operatorOut) }),

      opsOperatorPut: async ({ body, request }) => {
        const address = checksummedAddress(body.address, 'address');
        return operatorOut(await putOperator(deps.db, { address, roles: body.roles }, auditContextOf(request, deps.now())));
      },

      opsOperatorRemove: async ({ body, request }) =>
        removeOperator(deps.db, checksummedAddress(body.address, 'address'), auditContextOf(request, deps.now())),

      opsKeys: async ({ request }) => {
        const actor = requireOperator(request);
        const keys = await listApiKeys(deps.db, holdsRole(actor, 'admin') ? undefined : (actor.address ?? undefined));
        return { keys: keys.map(apiKeyOut) };
      },

      opsKeyCreate: async ({ body, request }) => {
        const actor = requireOperator(request);
        if (actor.via !== 'session' || actor.address === null) throw new RoleRequiredError();
        if (!body.roles.every((role: OperatorRole) => holdsRole(actor, role))) throw new RoleRequiredError();
        const { key, apiKey } = await createApiKey(deps.db, { label: body.label, roles: body.roles, createdBy: actor.address }, auditContextOf(request, deps.now()));
        return { id: apiKey.id, key, apiKey: apiKeyOut(apiKey) };
      },

      opsKeyRevoke: async ({ body, request }) => {
        const actor = requireOperator(request);
        const owner = holdsRole(actor, 'admin') ? undefined : (actor.address ?? undefined);
        return apiKeyOut(await revokeApiKey(deps.db, body.id, owner, auditContextOf(request, deps.now())));
      },

      opsAudit: async ({ query }) => readAudit(deps.db, query),
    },
    {
      opsLoginNonce: { rateLimit: deps.rateLimits.loginNonce },
      opsSignIn: { rateLimit: deps.rateLimits.memberSignLogin },
    },
  );

  // Not a JSON call, so not in the contract's catalogue; the same filters and role as opsAudit.
  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'GET',
    url: '/api/admin/audit.csv',
    schema: { querystring: auditQuerySchema },
    config: { access: 'operator:admin' },
    handler: async (request, reply) => {
      const lines = auditCsv(deps.db, { ...request.query, limit: CSV_PAGE });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.csv"')
        .send(Readable.from(lines));
    },
  });
};
