/**
 * Client side of a sign-in, shared by the in-process helpers and the load worker: nonce, EIP-4361 message (the
 * same fields the SPA's auth actors put in it), signature, memberSignLogin.
 */
import type { Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { z } from 'zod';
import { requestJson } from './net';

/** Where the messages are for: the server checks domain and URI host against SIWE_DOMAIN or its Host header. */
export interface SiteBinding {
  baseUrl: string;
  /** host[:port], e.g. `127.0.0.1:41234`. */
  domain: string;
  /** e.g. `http://127.0.0.1:41234`. */
  uri: string;
  chainId: number;
  statement: string;
}

const nonceAnswer = z.object({
  code: z.literal(0),
  result: z.object({ nonce: z.string(), issuedAt: z.string(), expirationTime: z.string() }),
});
const signInAnswer = z.object({ code: z.number(), result: z.object({ auth: z.string(), isFinishedBind: z.boolean() }).nullish() });

export type Nonce = z.infer<typeof nonceAnswer>['result'];

/**
 * A binding for a server on 127.0.0.1 that takes the domain from the Host header.
 *
 * @param port - the listening port
 * @param chainId - the chain of app config
 * @param statement - the statement of app config
 * @returns the binding
 * @example
 * const site = loopbackSite(port, 56, 'Sign in to Member DApp');
 */
export function loopbackSite(port: number, chainId: number, statement: string): SiteBinding {
  const domain = `127.0.0.1:${port}`;
  return { baseUrl: `http://${domain}`, domain, uri: `http://${domain}`, chainId, statement };
}

/**
 * GET loginNonce.
 *
 * @param site - the server
 * @param address - the wallet address
 * @returns the nonce and its validity
 * @throws when the answer is not a nonce
 * @example
 * const nonce = await fetchNonce(site, account.address);
 */
export async function fetchNonce(site: SiteBinding, address: string): Promise<Nonce> {
  const { status, body } = await requestJson(`${site.baseUrl}/api/member/loginNonce?address=${address}`);
  const parsed = nonceAnswer.safeParse(body);
  if (!parsed.success) throw new Error(`loginNonce answered ${status} ${JSON.stringify(body).slice(0, 200)}`);
  return parsed.data.result;
}

/**
 * Builds and signs the EIP-4361 message for a nonce.
 *
 * @param site - the binding (domain, URI, chain, statement)
 * @param account - the signing wallet
 * @param nonce - from loginNonce
 * @returns the message and its signature
 * @example
 * const signed = await signNonce(site, account, nonce);
 */
export async function signNonce(site: SiteBinding, account: PrivateKeyAccount, nonce: Nonce): Promise<{ message: string; signature: Hex }> {
  const message = createSiweMessage({
    domain: site.domain,
    address: account.address,
    statement: site.statement,
    uri: site.uri,
    version: '1',
    chainId: site.chainId,
    nonce: nonce.nonce,
    issuedAt: new Date(nonce.issuedAt),
    expirationTime: new Date(nonce.expirationTime),
  });
  return { message, signature: await account.signMessage({ message }) };
}

/**
 * POST memberSignLogin.
 *
 * @param site - the server
 * @param signed - message and signature
 * @param inviteCode - optional invite code to bind
 * @returns the token and whether the member is bound
 * @throws when the server refuses
 * @example
 * const { auth } = await postSignIn(site, signed);
 */
export async function postSignIn(
  site: SiteBinding,
  signed: { message: string; signature: Hex },
  inviteCode?: string,
): Promise<{ auth: string; isFinishedBind: boolean }> {
  const { status, body } = await requestJson(`${site.baseUrl}/api/member/memberSignLogin`, {
    method: 'POST',
    body: inviteCode ? { ...signed, inviteCode } : signed,
  });
  const parsed = signInAnswer.safeParse(body);
  if (!parsed.success || parsed.data.code !== 0 || !parsed.data.result) {
    throw new Error(`memberSignLogin answered ${status} ${JSON.stringify(body).slice(0, 200)}`);
  }
  return parsed.data.result;
}
