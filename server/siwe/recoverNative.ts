/**
 * Signer recovery through libsecp256k1 (the secp256k1 package's N-API binding), answering as viem's
 * recoverMessageAddress does: the same EIP-191 hash (viem's hashMessage), and the signatures viem's recoverPublicKey
 * refuses are refused before the binding sees them: not 65 bytes of hex, v not 0, 1, 27 or 28, r or s zero or not
 * below the curve's order n. A high s is accepted, as viem accepts it (ecrecover does too; a recovered signer is only
 * ever compared with the claimed address, so the signature's malleability changes nothing).
 * server/auth/signerRecovery.test.ts holds both to one answer.
 */
import { checksumAddress, hashMessage, keccak256, type Address } from 'viem';

/** What sign-in uses of the secp256k1 package's binding. */
export interface Secp256k1Binding {
  /** The uncompressed public key (65 bytes) of a compact signature's signer; throws when there is none. */
  ecdsaRecover(signature: Uint8Array, recoveryId: number, hash32: Uint8Array, compressed: false): Uint8Array;
}

/** secp256k1's group order n, as 64 lowercase hex digits: r and s must be in [1, n - 1]. */
const CURVE_ORDER_HEX = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const ZERO = /^0{64}$/;

/** A scalar in [1, n - 1]; equal-length lowercase hex compares as the numbers do. */
const isScalar = (hex: string): boolean => !ZERO.test(hex) && hex < CURVE_ORDER_HEX;

/**
 * Splits a 65-byte hex signature into the compact r‖s and the recovery id, refusing what viem's recoverPublicKey
 * refuses (its shape, the v byte, the range of r and s).
 *
 * @param signature - `0x` + 130 hex digits: r, s, v
 * @returns the 64 bytes of r‖s and the recovery id (0 or 1), or undefined
 * @example
 * signatureParts(await account.signMessage({ message }))?.recoveryId; // 0 or 1
 */
export function signatureParts(signature: string): { compact: Uint8Array; recoveryId: 0 | 1 } | undefined {
  if (!SIGNATURE.test(signature)) return undefined;
  const hex = signature.slice(2).toLowerCase();
  if (!isScalar(hex.slice(0, 64)) || !isScalar(hex.slice(64, 128))) return undefined;
  const v = Number.parseInt(hex.slice(128), 16);
  const recoveryId = v === 0 || v === 27 ? 0 : v === 1 || v === 28 ? 1 : undefined;
  if (recoveryId === undefined) return undefined;
  return { compact: Buffer.from(hex.slice(0, 128), 'hex'), recoveryId };
}

/**
 * Recovers the signer of a message with the native binding.
 *
 * @param binding - the secp256k1 package's binding
 * @param message - the exact message text
 * @param signature - 65-byte hex signature (v may be 0/1 or 27/28)
 * @returns the signer (EIP-55), or undefined when the signature is malformed or recovers no key
 * @example
 * recoverWithBinding(binding, message, signature); // '0x19E7…'
 */
export function recoverWithBinding(binding: Secp256k1Binding, message: string, signature: string): Address | undefined {
  const parts = signatureParts(signature);
  if (!parts) return undefined;
  let publicKey: Uint8Array;
  try {
    publicKey = binding.ecdsaRecover(parts.compact, parts.recoveryId, hashMessage(message, 'bytes'), false);
  } catch {
    // r is no point's x, or the key would be the point at infinity: viem throws for both too.
    return undefined;
  }
  // The address is the last 20 bytes of the keccak of the key without its 0x04 prefix (viem's publicKeyToAddress).
  return checksumAddress(`0x${keccak256(publicKey.subarray(1)).slice(26)}`);
}

/**
 * Whether a loaded module is the binding: the package falls back to pure-JS elliptic when its binding does not
 * load, so the binding is imported by its own file, and what came is checked before use.
 *
 * @param value - what the import gave
 * @returns true when it has ecdsaRecover
 * @example
 * if (isSecp256k1Binding(loaded)) loaded.ecdsaRecover(compact, 0, hash, false);
 */
export function isSecp256k1Binding(value: unknown): value is Secp256k1Binding {
  return typeof value === 'object' && value !== null && 'ecdsaRecover' in value && typeof value.ecdsaRecover === 'function';
}
