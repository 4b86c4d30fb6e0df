// Worker of server/auth/signerPool.ts: recovers the signers of EIP-191 messages. With workerData.engine
// 'libsecp256k1' through the secp256k1 package's binding, on the compact r‖s and recovery id the request thread has
// already checked (signatureParts in signerRecovery.ts); else with viem, as recoverSigner in server/siwe/verify.ts.
// Plain .mjs so that it runs under bare Node, tsx and vitest alike.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { checksumAddress, hashMessage, keccak256, recoverMessageAddress } from 'viem';

if (!parentPort) throw new Error('signerWorker.mjs runs as a worker thread');
const port = parentPort;

/** @type {{ ecdsaRecover(signature: Uint8Array, recoveryId: number, hash32: Uint8Array, compressed: false): Uint8Array } | undefined} */
const binding = workerData?.engine === 'libsecp256k1' ? createRequire(import.meta.url)('secp256k1/bindings.js') : undefined;

/** @param {{ message: string, compact: Uint8Array, recoveryId: number }} job */
function recoverNatively(job) {
  try {
    const publicKey = /** @type {NonNullable<typeof binding>} */ (binding).ecdsaRecover(job.compact, job.recoveryId, hashMessage(job.message, 'bytes'), false);
    // The last 20 bytes of the keccak of the key without its 0x04 prefix, as viem's publicKeyToAddress.
    return checksumAddress(`0x${keccak256(publicKey.subarray(1)).slice(26)}`);
  } catch {
    // r is no point's x, or the key would be the point at infinity: viem refuses both too.
    return null;
  }
}

port.on('message', (/** @type {{ id: number, message: string, signature: `0x${string}`, compact?: Uint8Array, recoveryId?: number }} */ job) => {
  if (binding && job.compact && job.recoveryId !== undefined) {
    port.postMessage({ id: job.id, signer: recoverNatively({ message: job.message, compact: job.compact, recoveryId: job.recoveryId }) });
    return;
  }
  recoverMessageAddress({ message: job.message, signature: job.signature }).then(
    (signer) => port.postMessage({ id: job.id, signer }),
    // A malformed signature (bad r, s or v) is no signer, exactly as in recoverSigner.
    () => port.postMessage({ id: job.id, signer: null }),
  );
});
