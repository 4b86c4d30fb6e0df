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

export const opsSignIn = defineEndpoint({
  method: 'POST',
  path: '/api/admin/auth/signIn',
  access: 'public',
  summary:
    'Sign in an operator with an EIP-4361 message whose statement is exactly "' +
    OPERATOR_SIGN_IN_STATEMENT +
    '" (else 1005) and its signature, checked as memberSignLogin checks members\'; an address that is no current operator gets 1006. ' +
    'The session token lives 12 hours (added)',
  query: undefined,
  body: z.strictObject({
    message: checked(z.string(), z.minLength(1), z.maxLength(4096)),
    signature: checked(z.string(), z.regex(/^0x[0-9a-fA-F]+$/, 'signature'), z.maxLength(8192)),
  }),
  result: z.object({ token: checked(z.string(), z.minLength(1)), expiresAt: isoDateSchema, operator: operatorSchema }),
});

export const opsMe = defineEndpoint({
  method: 'GET',
  path: '/api/admin/me',
  access: 'operator',
  summary: 'Who the caller is: address, roles and how they signed in (added)',
  query: undefined,
  body: undefined,
  result: z.object({ address: z.nullable(addressSchema), roles: z.array(operatorRoleSchema), via: viaSchema }),
});

export const opsLogout = defineEndpoint({
  method: 'POST',
  path: '/api/admin/auth/logout',
  access: 'operator',
  summary: 'End the session the call is made with (an API key is not ended by this: opsKeyRevoke) (added)',
  query: undefined,
  body: z.optional(emptySchema),
  result: z.optional(emptySchema),
});

export const operatorListItemSchema = z.object({
  address: addressSchema,
  roles: z.array(operatorRoleSchema),
  addedAt: isoDateSchema,
  /** The admin who added them; null when added by OPS_FIRST_ADMIN, the CLI or the seed. */
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

export const opsOperatorPut = defineEndpoint({
  method: 'POST',
  path: '/api/admin/operators/put',
  access: 'operator:admin',
  summary:
    'Add an operator, or set the roles of one (a removed one comes back). Taking admin from the last admin is 1001 (roles) (added)',
  query: undefined,
  body: z.strictObject({ address: addressSchema, roles: rolesSchema }),
  result: operatorListItemSchema,
});

export const opsOperatorRemove = defineEndpoint({
  method: 'POST',
  path: '/api/admin/operators/remove',
  access: 'operator:admin',
  summary:
    'Remove an operator: their sessions end and their API keys are revoked at once. Not an operator: 4004; the last admin: 1001 (address) (added)',
  query: undefined,
  body: z.strictObject({ address: addressSchema }),
  result: z.object({ sessionsEnded: intAtLeast(0), keysRevoked: intAtLeast(0) }),
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
    'Create an API key for scripts (Authorization: Bearer <key>) with roles the caller holds (else 1006); only from a signed-in session (else 1006). ' +
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
  summary: "Revoke an API key: one's own, or anyone's for an admin (else 4004); revoking again answers the same (added)",
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
    'The audit log, newest first: filters actor (address), action, target (exact), from and to (at, from inclusive, to exclusive); `limit` 1..200 (default 50), the next page from `nextCursor`. ' +
    'The same rows as CSV: GET /api/admin/audit.csv with the same filters (added)',
  query: auditQuerySchema,
  body: undefined,
  result: z.object({ list: z.array(auditRowSchema), nextCursor: z.nullable(z.string()) }),
});
