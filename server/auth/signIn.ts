/**
 * Sign-In with Ethereum, entirely offline: the strict parser, then the bindings the server cares about, then the
 * signer through local ecrecover, and only then one transaction that uses the nonce, creates the member, binds
 * an invite code and stores the token. A refused attempt therefore writes nothing, and a failure inside the
 * transaction gives the nonce back.
 */
import { getAddress, isAddressEqual, type Address } from 'viem';
import { getAppConfig } from '../config/appConfig';
import type { Db } from '../db/client';
import { InvalidParametersError, NonceInvalidError, SignatureInvalidError } from '../errors';
import { findOrCreateMember, isBound } from '../members/members';
import { bindRecommender } from '../members/tree';
import { SiweFormatError } from '../siwe/errors';
import { parseSiweMessage } from '../siwe/parse';
import type { SiweFields } from '../siwe/types';
import { issuedAtOf, isWithinValidity, recoverSigner } from '../siwe/verify';
import { consumeNonce } from './nonces';
import { issueToken } from './tokens';

/** A wallet clock may run a little ahead of ours. */
export const ISSUED_AT_SKEW_MS = 60 * 1000;
/** A message must be signed within the nonce's lifetime. */
export const MESSAGE_MAX_AGE_MS = 5 * 60 * 1000;

export interface SignInInput {
  message: string;
  signature: string;
  inviteCode?: string | undefined;
  /** The domain the message must name: SIWE_DOMAIN, else the Host the request came to. */
  expectedDomain: string;
  now: Date;
}

export interface SignInResult {
  auth: string;
  isFinishedBind: boolean;
}

function parseStrictly(message: string): SiweFields {
  try {
    return parseSiweMessage(message);
  } catch (error) {
    if (error instanceof SiweFormatError) throw new InvalidParametersError('message');
    throw error;
  }
}

function hostOf(uri: string): string | undefined {
  try {
    return new URL(uri).host;
  } catch {
    return undefined;
  }
}

/** Domain, URI and chain: a message made for another site or chain is refused with 1005 (API.md, "Codes"). */
function checkBindings(fields: SiweFields, expectedDomain: string, chainId: number): void {
  const domain = expectedDomain.toLowerCase();
  if (fields.domain.toLowerCase() !== domain) throw new SignatureInvalidError();
  if (hostOf(fields.uri)?.toLowerCase() !== domain) throw new SignatureInvalidError();
  if (fields.scheme !== undefined && `${fields.scheme}:` !== new URL(fields.uri).protocol) throw new SignatureInvalidError();
  if (fields.chainId !== chainId) throw new SignatureInvalidError();
}

/**
 * Time: issued at most 60 s in the future and at most 5 minutes ago, inside expirationTime and notBefore. A message
 * outside its window needs a fresh nonce and signature, which is what 1004 tells the client.
 */
function checkTime(fields: SiweFields, now: Date): void {
  const age = now.getTime() - issuedAtOf(fields).getTime();
  if (age < -ISSUED_AT_SKEW_MS || age > MESSAGE_MAX_AGE_MS) throw new NonceInvalidError();
  if (!isWithinValidity(fields, now)) throw new NonceInvalidError();
}

/**
 * Verifies a signed EIP-4361 message and signs the member in.
 *
 * @param db - database handle
 * @param input - message, signature, optional invite code, the expected domain and the time
 * @returns a new token and whether the member is bound
 * @throws InvalidParametersError (1001) for a malformed message, SignatureInvalidError (1005) for a wrong signer,
 *   domain, URI or chain, NonceInvalidError (1004) for an unknown, used or expired nonce or message
 * @example
 * const { auth, isFinishedBind } = await signIn(db, { message, signature, expectedDomain: 'member.example', now });
 */
export async function signIn(db: Db, input: SignInInput): Promise<SignInResult> {
  const { now } = input;
  const fields = parseStrictly(input.message);
  const config = await getAppConfig(db);
  checkBindings(fields, input.expectedDomain, config.chainId);
  checkTime(fields, now);

  const signer = await recoverSigner(input.message, input.signature);
  if (!signer || !isAddressEqual(signer, fields.address as Address)) throw new SignatureInvalidError();
  const address = getAddress(fields.address);

  return db.transaction(async (tx) => {
    if (!(await consumeNonce(tx, fields.nonce, address, now))) throw new NonceInvalidError();
    const member = await findOrCreateMember(tx, address, now);
    let bound = isBound(member);
    // An invite code that is unknown or would make a cycle is ignored here: sign-in still succeeds and the client
    // goes on to the bind page, where bindRecommendRelation reports the exact reason.
    if (input.inviteCode !== undefined && !bound) {
      bound = (await bindRecommender(tx, member.id, input.inviteCode)) === 'bound';
    }
    const auth = await issueToken(tx, member.id, now);
    return { auth, isFinishedBind: bound };
  });
}
