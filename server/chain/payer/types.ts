/**
 * What the payer (index.ts) and its parts share: the options it is made with, what signs for it, the steps a fault
 * test may stop it at, what a round did, the journal it read (journal.ts) and a pause of payouts (pause.ts). A module
 * of its own, so that no part imports the index that imports it, nor journal.ts and pause.ts each other; index.ts
 * exports the payer's own for its callers.
 */
import type { Hex, LocalAccount } from 'viem';
import type * as zm from 'zod/mini';
import type { pauseCauseSchema } from '../../../api-schema/dapp';
import type { Db } from '../../db/client';
import type { Chain } from '../chain';
import type { LostReason } from '../paymentWatch';

/**
 * What signs the payer's transactions: viem's account shape (its address and signTransaction), which
 * privateKeyToAccount gives for a local key and viem's toAccount builds around a remote signer (AWS or GCP KMS,
 * Web3Signer's eth_signTransaction). The payer signs transfers of the token and zero-value fillers, nothing else.
 */
export type PayerSigner = Pick<LocalAccount, 'address' | 'signTransaction'>;

/** The steps a fault test may kill the process at (PAYER_FAULT_AT). */
export const PAYER_STEPS = ['signed', 'stored', 'broadcast', 'receipt', 'beforePost'] as const;
export type PayerStep = (typeof PAYER_STEPS)[number];

export interface PayerOptions {
  db: Db;
  chain: Chain;
  /**
   * The hot wallet's private key (PAYER_KEY, PAYER_KEY_FILE), or what signs for it (PayerSigner: a KMS or Web3Signer
   * behind viem's account shape); the key itself then never enters this process.
   */
  key: Hex | PayerSigner;
  /** Who holds the lease: one name per server instance. */
  holder: string;
  /** How long a lease lasts unless renewed (a round renews it). */
  leaseMs?: number;
  /** How often a round runs on the timer. */
  pollMs?: number;
  /** Withdrawals signed per round at most. */
  batch?: number;
  /** Gas limit of a payment (one ERC-20 transfer; a new holder's costs about 52,000). */
  gasLimit?: bigint;
  /** A payment not mined this long, with the base fee above what it offers, is replaced. */
  stuckAfterMs?: number;
  /** How deep a posted payment's block must be before the payer stops checking it is still there (default 64). */
  watchBlocks?: number;
  now: () => Date;
  /** Called at each step (fault tests kill the process there). */
  onStep?: (step: PayerStep) => void;
  onError?: (error: unknown) => void;
  /**
   * A payment lost (logged at error; reconcile lists it): a posted one the chain lost (a reorganisation deeper than
   * the confirmations) or mined again as reverted, or a voided one mined after all as paid (paid after the refund).
   */
  onLost?: (lost: { withdrawalId: bigint; hash: Hex; reason: LostReason }) => void;
  /** Payouts stop (the reason: logged at error) or go on again (null): told when it changes (journal.ts). */
  onHalt?: (reason: string | null) => void;
  /** Older than this, the chain's newest block pauses payouts (pause.ts; ALERT_CHAIN_STALE_SECONDS, default 300). */
  chainStaleSeconds?: number;
  /** Payouts paused on doubt (logged at error): told when this payer opened the pause (pause.ts). */
  onPause?: (pause: PayoutPause) => void;
}

/** What a round did, for the tests and the log. */
export interface PayerRound {
  leader: boolean;
  signed: number;
  rebroadcast: number;
  replaced: number;
  posted: number;
  voided: number;
  /** Posted payments a reorganisation deeper than the confirmations removed, sent again this round. */
  lost: number;
  /** Voided withdrawals one of whose payments was found mined as paid this round (lost money: paid after refund). */
  paidAfterVoid: number;
  /** Nonce holes below this payer's payments filled with a zero-value transfer to itself this round. */
  filled: number;
  /** Why approved withdrawals wait, if they do. */
  waiting: 'token' | 'gas' | null;
  /** Nothing was signed: the chain shows what the database does not know, or found payments wait (journal.ts). */
  halted: boolean;
  /** No new payment was signed: payouts are paused on doubt until two operators resume them (pause.ts). */
  paused: boolean;
}

export interface PayerJournal {
  /** The nonce the chain shows next for the key. */
  chainNonce: bigint;
  /** The first nonce the database does not account for (0 before the key's first lease). */
  knownNonce: bigint;
  /** Payments the recovery found that operators have not settled yet. */
  unsettled: number;
  /** Nothing is signed: the chain shows nonces the database does not know, or found payments are unsettled. */
  halted: boolean;
  /** Payouts paused on doubt until two operators resume them (pause.ts): no new payment is signed meanwhile. */
  pause: PayoutPause | null;
}

/** Why payouts paused: the contract's causes (api-schema/dapp.ts, pauseCauseSchema). */
export type PauseCause = zm.infer<typeof pauseCauseSchema>;

/** One cause seen, with what was seen (for the desk and the log; members see the cause, translated). */
export interface PayoutDoubt {
  cause: PauseCause;
  detail: string;
}

export interface PayoutPause {
  id: bigint;
  pausedAt: Date;
  causes: PayoutDoubt[];
}
