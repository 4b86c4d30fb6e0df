/** Signing in from tests the way the SPA does: viem's createSiweMessage and a local account. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage, type CreateSiweMessageParameters } from 'viem/siwe';

export const TEST_DOMAIN = 'member.test';
export const TEST_URI = 'https://member.test/login';
export const TEST_CHAIN_ID = 56;

/** Fixed keys, so addresses are stable across runs (never use them for anything real). */
export const accounts = {
  alice: privateKeyToAccount('0x1111111111111111111111111111111111111111111111111111111111111111'),
  bob: privateKeyToAccount('0x2222222222222222222222222222222222222222222222222222222222222222'),
  carol: privateKeyToAccount('0x3333333333333333333333333333333333333333333333333333333333333333'),
  dave: privateKeyToAccount('0x4444444444444444444444444444444444444444444444444444444444444444'),
  mallory: privateKeyToAccount('0x5555555555555555555555555555555555555555555555555555555555555555'),
};

export interface Envelope<T = unknown> {
  code: number;
  message?: string;
  result?: T;
}

export function envelope<T = unknown>(response: Pick<LightMyRequestResponse, 'json'>): Envelope<T> {
  return response.json<Envelope<T>>();
}

export function authHeaders(token: string): Record<string, string> {
  return { authorization: token };
}

export async function requestNonce(app: FastifyInstance, address: string): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/member/loginNonce', query: { address } });
  const body = envelope<{ nonce: string }>(response);
  if (body.code !== 0 || !body.result) throw new Error(`loginNonce failed: ${response.body}`);
  return body.result.nonce;
}

export type MessageOverrides = Partial<Omit<CreateSiweMessageParameters, 'address' | 'nonce'>>;

/** A message as the SPA builds it: app domain and URI, BNB Smart Chain, issued now. */
export function buildMessage(account: PrivateKeyAccount, nonce: string, now: Date, overrides: MessageOverrides = {}): string {
  return createSiweMessage({
    domain: TEST_DOMAIN,
    uri: TEST_URI,
    chainId: TEST_CHAIN_ID,
    version: '1',
    statement: 'Sign in to Member DApp',
    issuedAt: now,
    ...overrides,
    address: account.address,
    nonce,
  });
}

/** Posts memberSignLogin as the SPA on TEST_DOMAIN does: the Host is the site the message names. */
export async function postSignLogin(app: FastifyInstance, payload: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers: { host: TEST_DOMAIN }, payload });
}

export interface SignedIn {
  auth: string;
  isFinishedBind: boolean;
}

/** Full sign-in: nonce, message, signature, memberSignLogin. Throws unless the server answers code 0. */
export async function signIn(
  app: FastifyInstance,
  account: PrivateKeyAccount,
  now: Date,
  options: { inviteCode?: string; overrides?: MessageOverrides } = {},
): Promise<SignedIn> {
  const nonce = await requestNonce(app, account.address);
  const message = buildMessage(account, nonce, now, options.overrides);
  const signature = await account.signMessage({ message });
  const response = await postSignLogin(app, { message, signature, ...(options.inviteCode ? { inviteCode: options.inviteCode } : {}) });
  const body = envelope<SignedIn>(response);
  if (body.code !== 0 || !body.result) throw new Error(`memberSignLogin failed: ${response.body}`);
  return body.result;
}

/** Signs in and binds to the seeded inviter (or the given code): a member with a main token. */
export async function signInBound(app: FastifyInstance, account: PrivateKeyAccount, now: Date, inviteCode = 'DEMO2026'): Promise<string> {
  const { auth, isFinishedBind } = await signIn(app, account, now, { inviteCode });
  if (!isFinishedBind) throw new Error('expected a bound member');
  return auth;
}
