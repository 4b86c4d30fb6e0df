/**
 * Signer recovery off the request thread, for viem's fallback (signerRecovery.ts): its recoverMessageAddress (a
 * keccak hash and a pure-JS secp256k1 public-key recovery) takes about 3 ms of CPU, more than everything else a
 * sign-in does together; on the event loop it would hold up every other request for that long. So the fallback hands
 * it to worker threads (signerWorker.mjs, the same viem call as recoverSigner) and the event loop goes on with other
 * requests meanwhile. libsecp256k1's recovery (about 0.1 ms) runs on the request thread instead: in a worker, the
 * messages and the thread's wake-ups cost more CPU than the recovery itself (ADR 0028).
 *
 * Workers start on the first recovery, hold the process open only while a recovery is pending, and are replaced
 * if one dies (its pending recoveries fail as internal errors). The pool has no state beyond its threads: every
 * recovery is a pure function of the message and the signature.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { getAddress, type Address } from 'viem';
import { workerModule } from '../serverFiles';

interface Pending {
  resolve: (signer: Address | undefined) => void;
  reject: (error: Error) => void;
}

interface Lane {
  worker: Worker;
  pending: Map<number, Pending>;
}

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
// Compiled, the bundle's own copy (dist/server/signerWorker.js, viem inside it): a production install holds no viem.
const workerUrl = workerModule('signerWorker', 'auth/signerWorker.mjs');

export class SignerPool {
  readonly #lanes: (Lane | undefined)[];
  #nextId = 0;

  /**
   * @param threads - worker threads (at least 1)
   */
  constructor(threads: number) {
    this.#lanes = Array.from({ length: Math.max(1, Math.floor(threads)) }, () => undefined);
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
    const lane = this.#leastBusy();
    const id = this.#nextId++;
    return new Promise<Address | undefined>((resolve, reject) => {
      if (lane.pending.size === 0) lane.worker.ref();
      lane.pending.set(id, { resolve, reject });
      lane.worker.postMessage({ id, message, signature });
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
    await Promise.all(lanes.filter((lane) => lane !== undefined).map((lane) => lane.worker.terminate()));
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
    const worker = new Worker(workerUrl, { execArgv: [] });
    const lane: Lane = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', (answer: { id: number; signer: string | null }) => {
      const pending = lane.pending.get(answer.id);
      if (!pending) return;
      lane.pending.delete(answer.id);
      if (lane.pending.size === 0) worker.unref();
      // viem answers EIP-55 already; getAddress also checks the shape of what crossed the thread boundary.
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

/**
 * The process's pool: one thread per core, at most four. The request thread mostly waits on I/O, so the cores
 * are the recoveries'; the operating system shares them with the event loop.
 */
export const signerPool = new SignerPool(Math.min(4, availableParallelism()));
