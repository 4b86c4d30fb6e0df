/**
 * Signing in over HTTP against a running server (the compiled one of the kill suites, the e2e server): the sign-in
 * page's steps with a viem account, no browser; and an operator's, as the desk's at /ops.
 */
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { OPERATOR_SIGN_IN_STATEMENT } from '../../../api-schema/ops';

/** The API's answers' result, over HTTP. */
export function apiCaller(base: string) {
  return async <T>(url: string, init?: RequestInit): Promise<T> => ((await (await fetch(`${base}${url}`, init)).json()) as { result: T }).result;
}

/**
 * A new member signs in with a wallet of their own (SIWE over HTTP, as the sign-in page does), bound to the invite
 * code.
 *
 * @param base - the server's URL
 * @param chainId - dappParam's
 * @param account - the wallet's account; default a new key
 * @param inviteCode - the code the member signs in with; default the seed's
 * @returns the account and its auth token
 * @example
 * const { account, auth } = await signInOverHttp(base, param.chainId);
 */
export async function signInOverHttp(
  base: string,
  chainId: number,
  account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey()),
  inviteCode = 'DEMO2026',
): Promise<{ account: PrivateKeyAccount; address: Address; auth: string }> {
  const call = apiCaller(base);
  const { nonce } = await call<{ nonce: string }>(`/api/member/loginNonce?address=${account.address}`);
  const message = createSiweMessage({ address: account.address, chainId, domain: new URL(base).host, nonce, uri: `${base}/login`, version: '1' });
  const { auth } = await call<{ auth: string }>('/api/member/memberSignLogin', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, signature: await account.signMessage({ message }), inviteCode }),
  });
  if (typeof auth !== 'string') throw new Error(`memberSignLogin gave no token for ${account.address}`);
  return { account, address: account.address, auth };
}

/**
 * An operator's wallet signs the desk's message and signs in through the API, as the desk does at /ops
 * (opsLoginNonce, opsSignIn), on the app config's chain.
 *
 * @param base - the server's URL
 * @param account - the operator's wallet
 * @returns the session's headers: its cookie and its CSRF token
 * @throws when the server does not give a session (not an operator: 1006)
 * @example
 * const session = await signInOperatorOverHttp(base, privateKeyToAccount(DEMO_OPERATOR_KEY)); // cookie and CSRF headers
 */
export async function signInOperatorOverHttp(base: string, account: PrivateKeyAccount): Promise<Record<string, string>> {
  const call = apiCaller(base);
  const param = await call<{ chainId: number } | undefined>('/api/dapp/dappParam');
  const nonce = await call<{ nonce: string } | undefined>(`/api/admin/auth/nonce?address=${account.address}`);
  if (!param || !nonce) throw new Error(`dappParam or opsLoginNonce gave nothing for ${account.address}`);
  const origin = new URL(base);
  const message = createSiweMessage({
    domain: origin.host,
    uri: origin.origin,
    chainId: param.chainId,
    version: '1',
    statement: OPERATOR_SIGN_IN_STATEMENT,
    issuedAt: new Date(),
    address: account.address,
    nonce: nonce.nonce,
  });
  const response = await fetch(`${base}/api/admin/auth/signIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, signature: await account.signMessage({ message }) }),
  });
  const answer = (await response.json()) as { code: number; result?: { csrfToken: string } };
  const token = /^mdo_session=([^;]+)/u.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (!answer.result || token === undefined) throw new Error(`opsSignIn answered ${answer.code} for ${account.address}`);
  // The desk's session is its cookie, and every change it makes carries the session's CSRF token.
  return { cookie: `mdo_session=${token}`, 'x-csrf-token': answer.result.csrfToken };
}
