// Worker of server/auth/signerPool.ts: recovers the signer of EIP-191 messages with viem, as recoverSigner in
// server/siwe/verify.ts does in the request thread. Plain .mjs so that it runs under bare Node, tsx and vitest alike.
import { parentPort } from 'node:worker_threads';
import { recoverMessageAddress } from 'viem';

if (!parentPort) throw new Error('signerWorker.mjs runs as a worker thread');
const port = parentPort;

port.on('message', (/** @type {{ id: number, message: string, signature: `0x${string}` }} */ job) => {
  recoverMessageAddress({ message: job.message, signature: job.signature }).then(
    (signer) => port.postMessage({ id: job.id, signer }),
    // A malformed signature (bad r, s or v) is no signer, exactly as in recoverSigner.
    () => port.postMessage({ id: job.id, signer: null }),
  );
});
