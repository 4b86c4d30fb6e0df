/**
 * Signer recovery off the request thread (the engine is chosen by signerRecovery.ts). viem's recoverMessageAddress (a
 * keccak hash and a pure-JS secp256k1 public-key recovery) takes about 3 ms of CPU, more than everything else a
 * sign-in does together; on the event loop it would hold up every other request for that long. libsecp256k1 takes
 * about 0.1 ms, still more than the messages to a worker and back cost the request thread (ADR 0028). So sign-in
 * hands recoveries to worker threads (signerWorker.mjs) and the event loop goes on with other requests meanwhile. For
 * the native engine the request thread checks the signature first (signatureParts) and sends r‖s and the recovery id.
 *
 * Workers start on the first recovery, hold the process open only while a recovery is pending, and are replaced
 * if one dies (its pending recoveries fail as internal errors). The pool has no state beyond its threads: every
 * recovery is a pure function of the message and the signature.
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { getAddress, type Address } from 'viem';
import { serverPath } from '../serverFiles';
import { signatureParts } from '../siwe/recoverNative';

interface Pending {
  resolve: (signer: Address | undefined) => void;
  reject: (error: Error) => void;
}

interface Lane {
  worker: Worker;
  pending: Map<number, Pending>;
}

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const workerUrl = pathToFileURL(serverPath('auth', 'signerWorker.mjs'));

export class SignerPool {
  readonly #lanes: (Lane | undefined)[];
  readonly #engine: 'libsecp256k1' | 'viem';
  #nextId = 0;

  /**
   * @param threads - worker threads (at least 1)
   * @param engine - libsecp256k1 (its binding must load: signerRecovery.ts checks) or viem
   */
  constructor(threads: number, engine: 'libsecp256k1' | 'viem' = 'viem') {
    this.#lanes = Array.from({ length: Math.max(1, Math.floor(threads)) }, () => undefined);
    this.#engine = engine;
  }

  /**
   * Recovers the address that signed a message (EIP-191 personal_sign), in a worker thread.
   *
   * @param message - the exact message text
   * @param signature - 65-byte hex signature (v may be 0/1 or 27/28)
   * @returns the signer (EIP-55), or undefined when the signature is malformed
   * @throws Error when the worker died during the recovery
   * @example
   * const signer = await signerPool.recover(message, signature);
   */
  recover(message: string, signature: string): Promise<Address | undefined> {
    if (!SIGNATURE.test(signature)) return Promise.resolve(undefined);
    let parts: ReturnType<typeof signatureParts>;
    if (this.#engine === 'libsecp256k1') {
      parts = signatureParts(signature);
      if (!parts) return Promise.resolve(undefined);
    }
    const lane = this.#leastBusy();
    const id = this.#nextId++;
    return new Promise<Address | undefined>((resolve, reject) => {
      if (lane.pending.size === 0) lane.worker.ref();
      lane.pending.set(id, { resolve, reject });
      lane.worker.postMessage({ id, message, signature, ...parts });
    });
  }

  /**
   * Stops the workers; pending recoveries fail at once (a worker may still answer before it exits: the answer is
   * dropped). The next recovery starts new ones.
   *
   * @returns when every worker has exited
   * @example
   * await pool.close();
   */
  async close(): Promise<void> {
    const lanes = [...this.#lanes];
    this.#lanes.fill(undefined);
    const closed = new Error('signer pool closed');
    for (const lane of lanes) {
      for (const pending of lane?.pending.values() ?? []) pending.reject(closed);
      lane?.pending.clear();
    }
    await Promise.all(lanes.map((lane) => lane?.worker.terminate()));
  }

  #leastBusy(): Lane {
    let best = 0;
    for (let index = 0; index < this.#lanes.length; index++) {
      const lane = this.#lanes[index];
      if (!lane) return this.#start(index);
      if (lane.pending.size < (this.#lanes[best]?.pending.size ?? 0)) best = index;
    }
    return this.#lanes[best] ?? this.#start(best);
  }

  #start(index: number): Lane {
    // Plain Node, without the parent's --import tsx: the worker is JavaScript, and viem's recovery imports its
    // curve module on every call, which a loader hook would turn into a round trip to the hooks thread.
    const worker = new Worker(workerUrl, { execArgv: [], workerData: { engine: this.#engine } });
    const lane: Lane = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', (answer: { id: number; signer: string | null }) => {
      const pending = lane.pending.get(answer.id);
      if (!pending) return;
      lane.pending.delete(answer.id);
      if (lane.pending.size === 0) worker.unref();
      // Both engines answer EIP-55 already; getAddress also checks the shape of what crossed the thread boundary.
      pending.resolve(answer.signer === null ? undefined : getAddress(answer.signer));
    });
    const fail = (error: Error) => {
      if (this.#lanes[index] === lane) this.#lanes[index] = undefined;
      for (const pending of lane.pending.values()) pending.reject(error);
      lane.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`signer worker exited with code ${code}`)));
    this.#lanes[index] = lane;
    return lane;
  }
}
