import * as z from 'zod/mini';
import { addressSchema, checked, emptySchema, inviteCodeSchema, isoDateSchema } from './primitives';
import { defineEndpoint } from './endpoint';

export const loginNonce = defineEndpoint({
  method: 'GET',
  path: '/api/member/loginNonce',
  access: 'public',
  summary: 'A single-use sign-in nonce, valid 5 minutes (added)',
  query: z.object({ address: addressSchema }),
  body: undefined,
  result: z.object({ nonce: checked(z.string(), z.minLength(8)), issuedAt: isoDateSchema, expirationTime: isoDateSchema }),
});

export const memberSignLogin = defineEndpoint({
  method: 'POST',
  path: '/api/member/memberSignLogin',
  access: 'public',
  summary:
    'Sign in with an EIP-4361 message and its signature; binds inviteCode when given. ' +
    "A smart-account wallet's signature (ERC-1271, ERC-6492) is checked on the app's chain: 3007 when it cannot be read now",
  query: undefined,
  body: z.strictObject({
    message: checked(z.string(), z.minLength(1), z.maxLength(4096)),
    // 8,192: a smart account's signature (a passkey's, wrapped for ERC-6492) runs to a few KiB of hex; an EOA's is 132.
    signature: checked(z.string(), z.regex(/^0x[0-9a-fA-F]+$/, 'signature'), z.maxLength(8192)),
    inviteCode: z.optional(inviteCodeSchema),
  }),
  result: z.object({ auth: checked(z.string(), z.minLength(1)), isFinishedBind: z.boolean() }),
});

export const bindRecommendRelation = defineEndpoint({
  method: 'POST',
  path: '/api/member/bindRecommendRelation',
  access: 'token',
  summary: 'Bind the recommender of the caller by invite code',
  query: undefined,
  body: z.strictObject({ inviteCode: inviteCodeSchema }),
  result: z.optional(emptySchema),
});

export const logout = defineEndpoint({
  method: 'POST',
  path: '/api/member/logout',
  access: 'token',
  summary: 'Revoke the token (added)',
  query: undefined,
  body: z.optional(emptySchema),
  result: z.optional(emptySchema),
});

export type SignLoginResult = z.infer<typeof memberSignLogin.result>;
export type LoginNonceResult = z.infer<typeof loginNonce.result>;
