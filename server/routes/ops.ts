/**
 * The operators' identity routes (docs/API.md, "Operators"): sign-in, who am I, logout, operators and roles, API keys
 * and the audit log with its CSV export. Always registered: the access hook lets in only operators' sessions and
 * keys, by the role each call names; the calls that change operators, roles or keys only a signed-in session. Every
 * change writes an audit row.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { OperatorRole } from '../../api-schema/endpoint';
import { endpoints } from '../../api-schema/endpoints';
import { auditQuerySchema } from '../../api-schema/ops';
import { CsrfRefusedError, RoleRequiredError } from '../errors';
import { checksummedAddress } from '../members/members';
import { holdsRole, requireOperator } from '../ops/actor';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRow } from '../ops/apiKeys';
import { auditContextOf, auditOf, recordAudit } from '../ops/audit';
import { auditCsv, readAudit } from '../ops/auditQuery';
import {
  cancelOperatorChange,
  confirmOperatorChange,
  listWaitingChanges,
  requestOperatorChange,
  statusOf,
  type OperatorChangeOutcome,
  type OperatorChangeRow,
} from '../ops/operatorChanges';
import { listOperators, type OperatorRow } from '../ops/operators';
import { clearedSessionCookie, csrfTokenOf, ownOrigin, sessionCookie, sessionTokenOf } from '../ops/sessionCookie';
import { endOperatorSession, issueOperatorNonce, OPERATOR_SESSION_TTL_MS, signInOperator } from '../ops/signIn';
import { expectedSite, type RouteDeps } from './deps';
import { registerHandlers } from './endpoint';

/** Rows the CSV export reads at a time. */
const CSV_PAGE = 500;

function operatorOut(row: OperatorRow) {
  return { address: row.address, roles: row.roles, addedAt: row.addedAt.toISOString(), addedBy: row.addedBy };
}

function changeOut(change: OperatorChangeRow) {
  return {
    id: change.id,
    kind: change.kind,
    address: change.address,
    roles: change.roles,
    requestedBy: change.requestedBy,
    requestedAt: change.requestedAt.toISOString(),
    status: statusOf(change),
    confirmedBy: change.confirmedBy,
    confirmedAt: change.confirmedAt?.toISOString() ?? null,
    cancelledAt: change.cancelledAt?.toISOString() ?? null,
  };
}

function outcomeOut({ change, operator, removed }: OperatorChangeOutcome) {
  return { ...changeOut(change), ...(operator ? { operator: operatorOut(operator) } : {}), ...(removed ? { removed } : {}) };
}

/**
 * The calls that change operators, roles or keys. Only a person signed in at the desk makes them, never an API key or
 * the shared bootstrap token, whatever its roles: a leaked credential can neither make an admin nor mint keys, nor
 * remove the admins. A new identity call goes in this list.
 */
const SESSION_ONLY_PATHS: ReadonlySet<string> = new Set(
  [endpoints.opsOperatorPut, endpoints.opsOperatorRemove, endpoints.opsOperatorConfirm, endpoints.opsOperatorCancel, endpoints.opsKeyCreate, endpoints.opsKeyRevoke].map(
    (endpoint) => endpoint.path,
  ),
);

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
  // After the access hook, before the body is read: 1006, whatever the body.
  app.addHook('onRequest', async (request) => {
    if (SESSION_ONLY_PATHS.has(request.routeOptions.url ?? '') && request.operator?.via !== 'session') throw new RoleRequiredError();
  });
  registerHandlers(
    app,
    {
      opsLoginNonce: async ({ query }) => issueOperatorNonce(deps.db, checksummedAddress(query.address, 'address'), deps.now()),

      opsSignIn: async ({ body, request, reply }) => {
        // A foreign page cannot sign a browser in behind its back (login CSRF) either.
        if (!ownOrigin(request)) throw new CsrfRefusedError();
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
        reply.header('set-cookie', sessionCookie(signedIn.token, OPERATOR_SESSION_TTL_MS));
        return { expiresAt: signedIn.expiresAt.toISOString(), operator: signedIn.operator, csrfToken: csrfTokenOf(signedIn.token) };
      },

      opsMe: async ({ request }) => {
        const { address, roles, via } = requireOperator(request);
        // The access hook let a session in only with its cookie, so the cookie is there to derive the token from.
        const sessionToken = via === 'session' ? sessionTokenOf(request.headers.cookie) : undefined;
        return { address, roles: [...roles], via, csrfToken: sessionToken === undefined ? null : csrfTokenOf(sessionToken) };
      },

      opsLogout: async ({ request, reply }) => {
        const actor = requireOperator(request);
        if (actor.via !== 'session') return undefined;
        reply.header('set-cookie', clearedSessionCookie());
        const now = deps.now();
        if (await endOperatorSession(deps.db, actor.credentialId, now)) {
          await recordAudit(deps.db, auditOf(request, now, { action: 'opsLogout', target: actor.address }));
        }
        return undefined;
      },

      opsOperators: async () => ({ operators: (await listOperators(deps.db)).map(operatorOut) }),

      opsOperatorPut: async ({ body, request }) => {
        const address = checksummedAddress(body.address, 'address');
        return outcomeOut(await requestOperatorChange(deps.db, { kind: 'put', address, roles: body.roles }, auditContextOf(request, deps.now())));
      },

      opsOperatorRemove: async ({ body, request }) => {
        const address = checksummedAddress(body.address, 'address');
        return outcomeOut(await requestOperatorChange(deps.db, { kind: 'remove', address }, auditContextOf(request, deps.now())));
      },

      opsOperatorChanges: async () => ({ changes: (await listWaitingChanges(deps.db)).map(changeOut) }),

      opsOperatorConfirm: async ({ body, request }) => outcomeOut(await confirmOperatorChange(deps.db, BigInt(body.id), auditContextOf(request, deps.now()))),

      opsOperatorCancel: async ({ body, request }) => changeOut(await cancelOperatorChange(deps.db, BigInt(body.id), auditContextOf(request, deps.now()))),

      opsKeys: async ({ request }) => {
        const actor = requireOperator(request);
        const keys = await listApiKeys(deps.db, holdsRole(actor, 'admin') ? undefined : actor.address);
        return { keys: keys.map(apiKeyOut) };
      },

      opsKeyCreate: async ({ body, request }) => {
        const actor = requireOperator(request);
        if (!body.roles.every((role: OperatorRole) => holdsRole(actor, role))) throw new RoleRequiredError();
        const { key, apiKey } = await createApiKey(deps.db, { label: body.label, roles: body.roles, createdBy: actor.address }, auditContextOf(request, deps.now()));
        return { id: apiKey.id, key, apiKey: apiKeyOut(apiKey) };
      },

      opsKeyRevoke: async ({ body, request }) => {
        const actor = requireOperator(request);
        const owner = holdsRole(actor, 'admin') ? undefined : actor.address;
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
