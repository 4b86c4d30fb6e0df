/**
 * The payer (docs/API.md, "Credit on chain"; docs/decisions/0019-withdrawals-paid-on-chain.md): pays approved withdrawals
 * in the token from one hot wallet, each at most once whatever crashes, restarts or retries happen. Its parts:
 *
 * - lease.ts: one payer per hot wallet, whatever the number of server instances (a lease in payer_accounts) and the
 *   row's lock around every nonce it hands out.
 * - sendNew.ts: nonces come from the database. A withdrawal gets its nonce, is signed locally with viem and stored
 *   (nonce, raw bytes, hash) in the transaction that moves it to `sent`; only then is it broadcast. It never pays more
 *   than the hot wallet holds (token, and gas money for the transactions): it waits.
 * - follow.ts: until a receipt exists it only ever broadcasts those bytes again, or replaces a stuck one with the
 *   same nonce and a higher fee (fees.ts; both kept: whichever is mined is the payment). A receipt at depth posts
 *   (status 1 with the token's Transfer log to the member) or voids (else: the member gets it all back). A nonce
 *   the chain used at depth voids too (`nonceUsed`), only once the block that took it shows another transaction
 *   (proofs.ts): a receipt answered "none" is never read as "not mined". A receipt that a reorganisation removed
 *   is forgotten and the bytes go out again.
 * - watchPosted.ts: a posted payment stays watched until `watchBlocks` deep: one a deeper reorganisation removed is
 *   lost (its block hash cleared) and its stored bytes go out again until it is mined again; the posting stands, and
 *   reconcile shows what is lost meanwhile. A voided one's stored bytes stay watched as long: mined after all, it is
 *   recorded and reported lost (`paidAfterVoid`).
 * - Payments of a hot wallet PAYER_KEY was rotated from are followed, watched and sent again as its own are (every
 *   address in payer_accounts), never replaced; a nonce hole below this payer's payments is filled with a
 *   zero-value transfer to itself (follow.ts).
 * - pause.ts: payouts stop on doubt (reconcile not ok, a lost or unknown payment, the journal halted, a stale
 *   chain): the payer opens a pause and signs no new payment until two operators resume it.
 * - payments.ts: the SQL of payments and of the withdrawal stages the payer reads.
 * - types.ts: what the parts share with this module (its options, the signer, the fault steps, a round's counts).
 */
import type { Address } from 'viem';
import { pollLoop, type LoopHealth } from '../pollLoop';
import { payerContext } from './context';
import { currentFees } from './fees';
import { follow } from './follow';
import { haltReason, readJournal } from './journal';
import { knownPayers, releaseLease, takeLease } from './lease';
import { pausePayouts, roundDoubts } from './pause';
import { sendNew } from './sendNew';
import type { PayerJournal, PayerOptions, PayerRound, PayoutPause } from './types';
import { watchPosted, watchVoided } from './watchPosted';

export { PAYER_STEPS, type PayerOptions, type PayerRound, type PayerSigner, type PayerStep } from './types';

export interface Payer {
  address: Address;
  gasLimit: bigint;
  /** Older than this, the chain's newest block pauses payouts, and keeps them from resuming (pause.ts). */
  chainStaleSeconds: number;
  round(): Promise<PayerRound>;
  start(): void;
  stop(): Promise<void>;
  /** Its timer's rounds: running, since when, the last successful one (readiness: server/health/readiness.ts). */
  health(): LoopHealth;
  /** The journal as the last round read it (undefined before the first). */
  journal(): PayerJournal | undefined;
}

/**
 * Creates the payer of one hot wallet.
 *
 * @param options - database, chain, key, this instance's name, timings
 * @returns round() (one pass: lease, follow sent payments, sign new ones), start(), stop()
 * @example
 * const payer = createPayer({ db, chain, key: env.PAYER_KEY, holder: instanceId, now });
 * payer.start();
 */
export function createPayer(options: PayerOptions): Payer {
  const context = payerContext(options);
  const chainStaleSeconds = options.chainStaleSeconds ?? 300;

  async function round(): Promise<PayerRound> {
    // Every instance reads the journal, the lease holder or not, so each one's readiness says whether payouts stop.
    const journal = await readJournal(context.db, context.client, context.account.address);
    noteJournal(journal);
    const counts = { signed: 0, rebroadcast: 0, replaced: 0, posted: 0, voided: 0, lost: 0, paidAfterVoid: 0, filled: 0 };
    const result: PayerRound = { leader: false, ...counts, waiting: null, halted: journal.halted, paused: journal.pause !== null };
    if (!(await takeLease(context))) return result;
    result.leader = true;
    const [head, fee] = await Promise.all([context.client.getBlockNumber({ cacheTime: 0 }), currentFees(context.client)]);
    // This payer's hot wallet first, then any PAYER_KEY was rotated from: their payments are followed to the end.
    // Halted, stored bytes still go out and payments post or void at depth; nothing new is signed, not even a
    // replacement or a filler.
    for (const payer of await knownPayers(context)) {
      await follow(context, result, head, fee, payer, { sign: !journal.halted });
      await watchPosted(context, result, head, payer);
      await watchVoided(context, result, head, payer);
    }
    // What the steps above found (a payment lost) counts before anything new is signed.
    const pause = journal.pause ?? (await pauseOnDoubt(journal));
    result.paused = pause !== null;
    if (!journal.halted && !pause) await sendNew(context, result, fee);
    return result;
  }

  async function pauseOnDoubt(journal: PayerJournal): Promise<PayoutPause | null> {
    const now = options.now();
    const doubts = await roundDoubts(context.db, context.client, { journal, now, chainStaleSeconds });
    if (doubts.length === 0) return null;
    const pause = await pausePayouts(context.db, doubts, now);
    lastJournal = { ...journal, pause };
    options.onPause?.(pause);
    return pause;
  }

  let lastJournal: PayerJournal | undefined;
  function noteJournal(journal: PayerJournal): void {
    const before = lastJournal ? haltReason(lastJournal) : null;
    lastJournal = journal;
    const reason = haltReason(journal);
    if (reason !== before) options.onHalt?.(reason);
  }

  const loop = pollLoop(round, options.pollMs ?? 1_000, { onError: options.onError, now: options.now });
  return {
    address: context.account.address,
    gasLimit: context.gasLimit,
    chainStaleSeconds,
    round,
    start: loop.start,
    stop: async () => {
      await loop.stop();
      // A stopping instance gives the lease up, so another takes over at once.
      await releaseLease(context).catch(() => undefined);
    },
    health: loop.health,
    journal: () => lastJournal,
  };
}
