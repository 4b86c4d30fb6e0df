/**
 * Which signer recovery sign-in uses: libsecp256k1 through the secp256k1 package's N-API binding (prebuilt in its npm
 * tarball for linux-x64 glibc and musl, darwin-arm64 and win32-x64), about 25 times faster than viem's pure-JS
 * recovery, behind the same checks (server/siwe/recoverNative.ts; ADR 0028). Where the binding does not load, or
 * answers a known signature wrongly, viem's recoverMessageAddress in worker threads (signerPool.ts), as before. The
 * server logs which one it uses when it starts (buildApp).
 *
 * The native recovery runs on the request thread: about 0.1 ms of CPU. Handed to a worker thread it cost the request
 * thread about 20 µs less, but the process about 0.5 ms more (the messages, the worker's wake-ups), and on two cores
 * the process's CPU is what bounds the sign-ins per second (ADR 0028's figures).
 */
import type { Address } from 'viem';
import { isSecp256k1Binding, recoverWithBinding, type Secp256k1Binding } from '../siwe/recoverNative';
import { signerPool } from './signerPool';

export interface SignerRecovery {
  /** Which recovery this is: the native library, or viem as the fallback. */
  engine: 'libsecp256k1' | 'viem';
  /** Why the native library is not used (with the viem fallback). */
  fallbackReason?: string;
  /**
   * The address that signed a message (EIP-191 personal_sign), EIP-55, or undefined when the signature is malformed.
   * Rejects only when the fallback's worker died during the recovery.
   */
  recover(message: string, signature: string): Promise<Address | undefined>;
}

/** A signature made by viem's signMessage with the private key 0x…01 (whose address is the generator's). */
const KNOWN = {
  message: 'signer recovery self-check',
  signature:
    '0xd5d1c80b910fa17b92d86a3f1a909137199a36901a052fdc69307b3cd8a70efb11cfeb679086267017f70472b4fd6f00464b2d5fa8ca0ab6511b7e12552f7f541b',
  signer: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
} as const;

/** viem's recovery in the worker threads: the fallback. */
const viemRecovery = (fallbackReason: string): SignerRecovery => ({
  engine: 'viem',
  fallbackReason,
  recover: (message, signature) => signerPool.recover(message, signature),
});

/** libsecp256k1's recovery on the request thread. */
const nativeRecovery = (binding: Secp256k1Binding): SignerRecovery => ({
  engine: 'libsecp256k1',
  recover: async (message, signature) => recoverWithBinding(binding, message, signature),
});

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
  // A CommonJS module imported from an ES module is its default export. The package's main module falls back to
  // pure-JS elliptic when its binding does not load, so the binding's own file is imported, and checked here.
  const binding = typeof loaded === 'object' && loaded !== null && 'default' in loaded ? loaded.default : loaded;
  if (!isSecp256k1Binding(binding)) return viemRecovery('the secp256k1 binding has no ecdsaRecover');
  if (recoverWithBinding(binding, KNOWN.message, KNOWN.signature) !== KNOWN.signer) {
    return viemRecovery('the secp256k1 binding recovered the wrong signer of a known signature');
  }
  return nativeRecovery(binding);
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
