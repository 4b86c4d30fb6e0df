/**
 * Offline EIP-4361 verification: time window and bindings through viem's validateSiweMessage, the signer through
 * viem's recoverMessageAddress (local ecrecover over the EIP-191 hash). viem's verifySiweMessage is not used: it
 * needs a public client and calls the chain, and an EOA's sign-in must never wait on a node. Contract accounts
 * (ERC-1271, ERC-6492), which only the chain can verify, are asked of it by server/auth/contractSigner.ts, and only
 * after ecrecover did not give the claimed address.
 */
import { isAddressEqual, recoverMessageAddress, type Address, type Hex } from 'viem';
import { validateSiweMessage } from 'viem/siwe';
import { parseRfc3339 } from './grammar';
import type { SiweFields } from './types';

function toDate(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const millis = parseRfc3339(value);
  // Validated fields always parse; an unparsable date becomes Invalid Date, which viem refuses.
  return new Date(millis ?? Number.NaN);
}

/**
 * Issued-at as a Date, for the server's freshness rule.
 *
 * @param fields - validated fields
 * @returns the instant of `issuedAt`
 * @example
 * issuedAtOf(fields).getTime();
 */
export function issuedAtOf(fields: SiweFields): Date {
  return toDate(fields.issuedAt) ?? new Date(Number.NaN);
}

/**
 * Checks expirationTime and notBefore against a time, using viem's validateSiweMessage.
 *
 * @param fields - validated fields
 * @param time - the instant to check at
 * @returns true when the message is within its validity window at `time`
 * @example
 * isWithinValidity(fields, new Date());
 */
export function isWithinValidity(fields: SiweFields, time: Date): boolean {
  return validateSiweMessage({
    message: {
      address: fields.address as Address,
      nonce: fields.nonce,
      version: fields.version,
      expirationTime: toDate(fields.expirationTime),
      notBefore: toDate(fields.notBefore),
    },
    time,
  });
}

/**
 * Recovers the address that signed a message (EIP-191 personal_sign) without any network call.
 *
 * @param message - the exact message text
 * @param signature - 65-byte hex signature (v may be 0/1 or 27/28)
 * @returns the signer, or undefined when the signature is malformed
 * @example
 * const signer = await recoverSigner(message, signature);
 */
export async function recoverSigner(message: string, signature: string): Promise<Address | undefined> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return undefined;
  try {
    return await recoverMessageAddress({ message, signature: signature as Hex });
  } catch {
    return undefined;
  }
}

export interface VerifySiweParameters {
  /** The exact signed text (for a field set, formatSiweMessage rebuilds it). */
  message: string;
  fields: SiweFields;
  signature: string;
  /** Instant to check validity at; defaults to the message's issuedAt, as the spruceid vectors expect. */
  time?: Date | undefined;
  /** Expected domain (domain binding). */
  domain?: string | undefined;
  /** Expected nonce. */
  nonce?: string | undefined;
}

/**
 * Verifies an EIP-4361 message completely: bindings, validity window and signer.
 *
 * @param parameters - message, its fields, signature and what to bind to
 * @returns true when every check passes
 * @example
 * const ok = await verifySiwe({ message, fields: parseSiweMessage(message), signature, domain: 'login.xyz' });
 */
export async function verifySiwe(parameters: VerifySiweParameters): Promise<boolean> {
  const { message, fields, signature, domain, nonce } = parameters;
  const time = parameters.time ?? issuedAtOf(fields);
  const bound = validateSiweMessage({
    message: { domain: fields.domain, nonce: fields.nonce, address: fields.address as Address, version: fields.version },
    domain,
    nonce,
  });
  if (!bound || !isWithinValidity(fields, time)) return false;
  const signer = await recoverSigner(message, signature);
  return signer !== undefined && isAddressEqual(signer, fields.address as Address);
}
