/**
 * The operator API as the e2e journeys call it (docs/API.md "Operations"): a POST by the test treasury (a finance
 * operator with a fixed API key, tests/support/treasury.ts, on servers started with `treasury`) to the server the
 * journeys run against; and an operator's desk session made over HTTP.
 */
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { OPS_STORAGE_KEYS } from '../../../src/ops/deskStorage';
import { signInOperatorOverHttp } from '../../server/support/httpSignIn';
import { treasuryHeaders } from '../../support/treasury';
import type { JourneyHarness } from './journey';

export interface Envelope<T> {
  code: number;
  result?: T;
}

/**
 * A call to the server answered with its envelope, as the app and the desk send it: a GET without a body, a JSON POST
 * with one; `headers` carry the credential (a member's token, a desk's bearer token, the treasury's key).
 *
 * @example const answer = await envelopeCall(e2e.server.url, '/api/admin/me', { Authorization: `Bearer ${token}` });
 */
export async function envelopeCall<T>(base: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Envelope<T>> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Envelope<T>;
}

/**
 * A call of the test treasury, answered with the server's envelope.
 *
 * @param e2e - the file's journey harness (its server)
 * @param path - e.g. /api/admin/grant
 * @param body - the request body
 * @returns the envelope
 * @example
 * const grant = await treasuryCall(e2e, '/api/admin/grant', { address, asset: 'WPOS', amount: '100', requestId });
 */
export function treasuryCall<T>(e2e: JourneyHarness, path: string, body: unknown): Promise<Envelope<T>> {
  return envelopeCall<T>(e2e.server.url, path, treasuryHeaders(), body);
}

/**
 * An operator's wallet signs the desk's message with viem and signs in through the API, as the desk does at /ops
 * (opsLoginNonce, opsSignIn), on the app config's chain. For journeys whose subject comes after the desk's sign-in;
 * the sign-in itself is walked at /ops by ops.spec.ts and the desk's visual check.
 *
 * @param e2e - the file's journey harness (its server)
 * @param privateKey - the operator's key
 * @returns the operator's token and the localStorage the desk keeps after a sign-in (src/ops/deskStorage.ts)
 * @example
 * const desk = await deskSessionOverHttp(e2e, DEMO_OPERATOR_KEY);
 * const { page } = await e2e.open({ wallet: { ...wallet, connected: true }, localStorage: desk.localStorage });
 */
export async function deskSessionOverHttp(e2e: JourneyHarness, privateKey: Hex): Promise<{ token: string; localStorage: Record<string, string> }> {
  const token = await signInOperatorOverHttp(e2e.server.url, privateKeyToAccount(privateKey));
  return { token, localStorage: { [OPS_STORAGE_KEYS.token]: JSON.stringify(token) } };
}
