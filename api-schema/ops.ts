import * as z from 'zod/mini';
import { operatorRoles } from './endpoint';
import { addressSchema, checked, emptySchema, intAtLeast, isoDateSchema } from './primitives';
import { defineEndpoint } from './endpoint';

/**
 * The operators' identity (docs/API.md, "Operators"): their own SIWE sign-in, sessions, roles, API keys and the audit
 * log. Not part of the member SPA (the desk's bundle imports it).
 */

/** The one statement an operator's sign-in message carries; a member's sign-in refuses it, and this one any other. */
export const OPERATOR_SIGN_IN_STATEMENT = "Sign in to the Member DApp operators' desk.";

export const operatorRoleSchema = z.enum(operatorRoles);
/** One to four distinct roles. */
const rolesSchema = checked(
  z.array(operatorRoleSchema),
  z.minLength(1),
  z.maxLength(operatorRoles.length),
  z.refine((roles) => new Set(roles).size === roles.length, 'roles'),
);
const viaSchema = z.enum(['session', 'apiKey', 'bootstrap', 'cli']);

export const opsLoginNonce = defineEndpoint({
  method: 'GET',
  path: '/api/admin/auth/nonce',
  access: 'public',
  summary: "A single-use operator sign-in nonce, valid 5 minutes (as loginNonce; operators' nonces are their own) (added)",
  query: z.object({ address: addressSchema }),
  body: undefined,
  result: z.object({ nonce: checked(z.string(), z.minLength(8)), issuedAt: isoDateSchema, expirationTime: isoDateSchema }),
});

const operatorSchema = z.object({ address: addressSchema, roles: z.array(operatorRoleSchema) });
/** What the desk sends back in X-CSRF-Token on every state-changing call made with the session cookie. */
const csrfTokenSchema = checked(z.string(), z.minLength(1));

export const opsSignIn = defineEndpoint({
  method: 'POST',
  path: '/api/admin/auth/signIn',
  access: 'public',
  summary:
    'Sign in an operator with an EIP-4361 message whose statement is exactly "' +
    OPERATOR_SIGN_IN_STATEMENT +
    '" (else 1005) and its signature, checked as memberSignLogin checks members\'; an address that is no current operator gets 1006. ' +
    'The session is set as the HttpOnly cookie mdo_session (Secure, SameSite=Strict, Path=/api/admin) and lives 12 hours; it is never in the answer. ' +
    'State-changing calls made with it send csrfToken in X-CSRF-Token (else 1006); a foreign Origin is 1006 (added)',
  query: undefined,
  body: z.strictObject({
    message: checked(z.string(), z.minLength(1), z.maxLength(4096)),
    signature: checked(z.string(), z.regex(/^0x[0-9a-fA-F]+$/, 'signature'), z.maxLength(8192)),
  }),
  result: z.object({ expiresAt: isoDateSchema, operator: operatorSchema, csrfToken: csrfTokenSchema }),
});

export const opsMe = defineEndpoint({
  method: 'GET',
  path: '/api/admin/me',
  access: 'operator',
  summary:
    'Who the caller is: address, roles, how they signed in, and for the session cookie its csrfToken ' +
    '(null otherwise): the desk asks this on every start to learn whether it is signed in (added)',
  query: undefined,
  body: undefined,
  result: z.object({ address: z.nullable(addressSchema), roles: z.array(operatorRoleSchema), via: viaSchema, csrfToken: z.nullable(csrfTokenSchema) }),
});

export const opsLogout = defineEndpoint({
  method: 'POST',
  path: '/api/admin/auth/logout',
  access: 'operator',
  summary: 'End the session the call is made with and clear its cookie (an API key is not ended by this: opsKeyRevoke) (added)',
  query: undefined,
  body: z.optional(emptySchema),
  result: z.optional(emptySchema),
});

export const operatorListItemSchema = z.object({
  address: addressSchema,
  roles: z.array(operatorRoleSchema),
  addedAt: isoDateSchema,
  /**
   * The admin whose act added them (who confirmed the change, when another admin asked for it); null when added by
   * OPS_FIRST_ADMIN, the CLI or the seed.
   */
  addedBy: z.nullable(addressSchema),
});

export const opsOperators = defineEndpoint({
  method: 'GET',
  path: '/api/admin/operators',
  access: 'operator:admin',
  summary: 'The current operators and their roles, in the order they were added (added)',
  query: undefined,
  body: undefined,
  result: z.object({ operators: z.array(operatorListItemSchema) }),
});

const operatorChangeIdSchema = checked(z.string(), z.regex(/^[1-9]\d{0,17}$/, 'id'));

/** An admin's put or remove of an operator, waiting for a second admin or done (docs/API.md, "Operators"). */
export const operatorChangeSchema = z.object({
  id: z.string(),
  kind: z.enum(['put', 'remove']),
  address: addressSchema,
  /** The roles a put sets; null for a remove. */
  roles: z.nullable(z.array(operatorRoleSchema)),
  requestedBy: addressSchema,
  requestedAt: isoDateSchema,
  status: z.enum(['waiting', 'done', 'cancelled']),
  /** The second admin; the requester themself when a sole admin's change was done at once. */
  confirmedBy: z.nullable(addressSchema),
  confirmedAt: z.nullable(isoDateSchema),
  cancelledAt: z.nullable(isoDateSchema),
  /** When this call carried out a put: the operator as stored. */
  operator: z.optional(operatorListItemSchema),
  /** When this call carried out a remove: their sessions ended and keys revoked. */
  removed: z.optional(z.object({ sessionsEnded: intAtLeast(0), keysRevoked: intAtLeast(0) })),
});

const fourEyes =
  'Only from a signed-in session (an API key or the bootstrap token: 1006). It waits for a second admin (opsOperatorConfirm) and answers the change, `waiting`; ' +
  'while the caller is the only admin it is done at once (`done`). ';

export const opsOperatorPut = defineEndpoint({
  method: 'POST',
  path: '/api/admin/operators/put',
  access: 'operator:admin',
  summary:
    'Ask to add an operator, or set the roles of one (a removed one comes back). ' +
    fourEyes +
    'Taking admin from the last admin is 1001 (roles), when done (added)',
  query: undefined,
  body: z.strictObject({ address: addressSchema, roles: rolesSchema }),
  result: operatorChangeSchema,
});

export const opsOperatorRemove = defineEndpoint({
  method: 'POST',
  path: '/api/admin/operators/remove',
  access: 'operator:admin',
  summary:
    'Ask to remove an operator: when done, their sessions end and their API keys are revoked at once. ' +
    fourEyes +
    'Not an operator: 4004; the last admin: 1001 (address), when done (added)',
  query: undefined,
  body: z.strictObject({ address: addressSchema }),
  result: operatorChangeSchema,
});

export const opsOperatorChanges = defineEndpoint({
  method: 'GET',
  path: '/api/admin/operators/changes',
  access: 'operator:admin',
  summary: "The operator changes waiting for a second admin, oldest first; a change of an admin removed or demoted since no longer counts and is not listed (added)",
  query: undefined,
  body: undefined,
  result: z.object({ changes: z.array(operatorChangeSchema) }),
});

export const opsOperatorConfirm = defineEndpoint({
  method: 'POST',
  path: '/api/admin/operators/confirm',
  access: 'operator:admin',
  summary:
    'Confirm a waiting operator change as a second, different admin, from a signed-in session (else 1006): it is done, once. ' +
    "The requester's own confirmation changes nothing (it stays `waiting`); a done one is answered as it is; a cancelled one is 3006; none 4004; " +
    'one that would leave no admin 1001 (it stays waiting) (added)',
  query: undefined,
  body: z.strictObject({ id: operatorChangeIdSchema }),
  result: operatorChangeSchema,
});

export const opsOperatorCancel = defineEndpoint({
  method: 'POST',
  path: '/api/admin/operators/cancel',
  access: 'operator:admin',
  summary:
    'Withdraw a waiting operator change (any admin, its requester too), from a signed-in session (else 1006); again answers it as it is, a done one is 3006, none 4004 (added)',
  query: undefined,
  body: z.strictObject({ id: operatorChangeIdSchema }),
  result: operatorChangeSchema,
});

export const apiKeySchema = z.object({
  id: z.string(),
  label: z.string(),
  roles: z.array(operatorRoleSchema),
  createdBy: addressSchema,
  createdAt: isoDateSchema,
  lastUsedAt: z.nullable(isoDateSchema),
  revokedAt: z.nullable(isoDateSchema),
});

export const opsKeys = defineEndpoint({
  method: 'GET',
  path: '/api/admin/keys',
  access: 'operator',
  summary: "API keys, newest first: the caller's own; an admin's call lists everyone's. The secret is never shown again (added)",
  query: undefined,
  body: undefined,
  result: z.object({ keys: z.array(apiKeySchema) }),
});

export const opsKeyCreate = defineEndpoint({
  method: 'POST',
  path: '/api/admin/keys/create',
  access: 'operator',
  summary:
    'Create an API key for scripts (Authorization: Bearer <key>) with roles the caller holds (else 1006); only from a signed-in session (an API key or the bootstrap token: 1006). ' +
    'The key is in this answer only; the server keeps its sha256 (added)',
  query: undefined,
  body: z.strictObject({ label: checked(z.string(), z.minLength(1), z.maxLength(100)), roles: rolesSchema }),
  result: z.object({ id: z.string(), key: checked(z.string(), z.regex(/^mdk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/, 'key')), apiKey: apiKeySchema }),
});

const keyIdSchema = checked(z.string(), z.regex(/^[0-9a-f]{16}$/, 'id'));

export const opsKeyRevoke = defineEndpoint({
  method: 'POST',
  path: '/api/admin/keys/revoke',
  access: 'operator',
  summary:
    "Revoke an API key: one's own, or anyone's for an admin (else 4004), only from a signed-in session (an API key or the bootstrap token: 1006); revoking again answers the same (added)",
  query: undefined,
  body: z.strictObject({ id: keyIdSchema }),
  result: apiKeySchema,
});

export const auditRowSchema = z.object({
  id: z.string(),
  at: isoDateSchema,
  actorAddress: z.nullable(addressSchema),
  actorRoles: z.array(z.string()),
  via: z.string(),
  action: z.string(),
  target: z.nullable(z.string()),
  before: z.unknown(),
  after: z.unknown(),
  requestId: z.nullable(z.string()),
  clientAddress: z.nullable(z.string()),
});

/** opsAudit's filters, shared with the CSV export (GET /api/admin/audit.csv). */
export const auditQuerySchema = z.object({
  actor: z.optional(addressSchema),
  action: z.optional(checked(z.string(), z.regex(/^[A-Za-z][A-Za-z0-9.:_-]{0,63}$/, 'action'))),
  target: z.optional(checked(z.string(), z.minLength(1), z.maxLength(200))),
  from: z.optional(isoDateSchema),
  to: z.optional(isoDateSchema),
  /** The last row's id of the page before (nextCursor). */
  cursor: z.optional(checked(z.string(), z.regex(/^[1-9]\d{0,17}$/, 'cursor'))),
  limit: z._default(checked(z.coerce.number(), z.int(), z.minimum(1), z.maximum(200)), 50),
});

export const opsAudit = defineEndpoint({
  method: 'GET',
  path: '/api/admin/audit',
  access: 'operator:admin',
  summary:
    'The audit log, newest first: filters actor (address), action, target (exact), from and to (at, from inclusive, to exclusive); `limit` 1..200 (default 50), the next page from `nextCursor`, `total` matching on all pages. ' +
    'The same rows as CSV: GET /api/admin/audit.csv with the same filters (added)',
  query: auditQuerySchema,
  body: undefined,
  result: z.object({ list: z.array(auditRowSchema), nextCursor: z.nullable(z.string()), total: checked(z.number(), z.int(), z.nonnegative()) }),
});
