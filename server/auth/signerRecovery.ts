/**
 * Who signed a sign-in message: libsecp256k1 through the secp256k1 package's N-API binding (prebuilt in its npm
 * tarball for linux-x64 glibc and musl, darwin-arm64 and win32-x64), about 25 times faster than viem's pure-JS
 * recovery (ADR 0028). Where the binding does not load, viem's recoverMessageAddress in worker threads
 * (signerPool.ts), as before. The server logs which one it uses when it starts (buildApp).
 *
 * Both answer alike: the same EIP-191 hash (viem's hashMessage), and the signatures viem refuses are refused before
 * the binding sees them: not 65 bytes of hex, v not 0, 1, 27 or 28, r or s zero or not below the curve's order n. A
 * high s is accepted, as viem accepts it (ecrecover does too; the signature is only ever compared with the claimed
 * address, so its malleability changes nothing). tests/server/unit/signerRecovery.test.ts holds both to one answer.
 *
 * The native recovery runs on the request thread: it costs about 0.1 ms, less than handing it to a worker and back,
 * which on this kind of two-core machine also competes with the request thread for a core (ADR 0028's figures).
 */
import { checksumAddress, hashMessage, keccak256, type Address } from 'viem';
import { signerPool } from './signerPool';

/** What sign-in uses of the secp256k1 package's binding. */
export interface Secp256k1Binding {
  /** The uncompressed public key (65 bytes) of a compact signature's signer; throws when there is none. */
  ecdsaRecover(signature: Uint8Array, recoveryId: number, hash32: Uint8Array, compressed: false): Uint8Array;
}

export interface SignerRecovery {
  /** Which recovery this is: the native library, or viem as the fallback. */
  engine: 'libsecp256k1' | 'viem';
  /** Why the native library was not used (with the viem fallback). */
  fallbackReason?: string;
  /**
   * The address that signed a message (EIP-191 personal_sign), EIP-55, or undefined when the signature is malformed.
   * Rejects only when the fallback's worker died during the recovery.
   */
  recover(message: string, signature: string): Promise<Address | undefined>;
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

/** viem's recovery in the worker threads: the fallback. */
const viemRecovery = (fallbackReason: string): SignerRecovery => ({
  engine: 'viem',
  fallbackReason,
  recover: (message, signature) => signerPool.recover(message, signature),
});

/** A signature made by viem's signMessage with the private key 0x…01 (whose address is the generator's). */
const KNOWN = {
  message: 'signer recovery self-check',
  signature:
    '0xd5d1c80b910fa17b92d86a3f1a909137199a36901a052fdc69307b3cd8a70efb11cfeb679086267017f70472b4fd6f00464b2d5fa8ca0ab6511b7e12552f7f541b',
  signer: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
} as const;

/**
 * Chooses the recovery: the native binding when it loads and recovers a known signature correctly, else viem.
 *
 * @param load - imports the binding (injected by tests); may throw or give something else
 * @returns the recovery to use
 * @example
 * const recovery = await chooseSignerRecovery(() => import('secp256k1/bindings.js'));
 */
export async function chooseSignerRecovery(load: () => Promise<unknown>): Promise<SignerRecovery> {
  let loaded: unknown;
  try {
    loaded = await load();
  } catch (error) {
    return viemRecovery(error instanceof Error ? error.message : String(error));
  }
  // A CommonJS module imported from an ES module is its default export.
  const binding = typeof loaded === 'object' && loaded !== null && 'default' in loaded ? loaded.default : loaded;
  if (!isSecp256k1Binding(binding)) return viemRecovery('the secp256k1 binding has no ecdsaRecover');
  if (recoverWithBinding(binding, KNOWN.message, KNOWN.signature) !== KNOWN.signer) {
    return viemRecovery('the secp256k1 binding recovered the wrong signer of a known signature');
  }
  return { engine: 'libsecp256k1', recover: async (message, signature) => recoverWithBinding(binding, message, signature) };
}

let chosen: Promise<SignerRecovery> | undefined;

/**
 * The process's recovery, chosen on the first call.
 *
 * @returns the recovery sign-in uses
 * @example
 * const signer = await (await signerRecovery()).recover(message, signature);
 */
export function signerRecovery(): Promise<SignerRecovery> {
  chosen ??= chooseSignerRecovery(() => import('secp256k1/bindings.js'));
  return chosen;
}
