import * as z from 'zod/mini';
import { addressSchema, amountSchema, balanceSchema, checked, intAtLeast, isoDateSchema, requestIdSchema, signedAmountSchema, txHashSchema } from './primitives';
import { defineEndpoint } from './endpoint';
import { pauseCauseSchema } from './dapp';
import { withdrawalFailureSchema, withdrawalStatusSchema } from './member';

/**
 * The operators' money calls (docs/API.md, "Operations" and "Credit on chain"): grant, a withdrawal's decision, the
 * ledger's totals, reconcile and the payer's recovery, distribute, the top-ups re-read and the alerts. Calls carry an
 * operator's session or API key. Not part of the member app: its client never imports this module.
 */

export const assetSchema = z.enum(['CREDIT', 'WPOS']);

export const opsGrant = defineEndpoint({
  method: 'POST',
  path: '/api/admin/grant',
  access: 'operator:finance',
  summary:
    "Grant a member CREDIT or WPOS from issuance (a reward record); at most once per requestId of the operator. Under the operators' policy (act grant): " +
    'above what one operator grants alone it is refused (3009; opsAdjust waits for a second operator instead); never to the operator themselves (1007) (added)',
  query: undefined,
  body: z.strictObject({
    address: addressSchema,
    asset: assetSchema,
    amount: amountSchema,
    requestId: requestIdSchema,
    memo: z.optional(checked(z.string(), z.maxLength(200))),
  }),
  result: z.object({ id: z.string(), balanceAfter: balanceSchema }),
});

/** A withdrawal as the operator sees it. */
export const withdrawalSchema = z.object({
  id: z.string(),
  address: addressSchema,
  amount: amountSchema,
  fee: balanceSchema,
  status: withdrawalStatusSchema,
  createdAt: isoDateSchema,
  /** When it left `pending` (approved or failed), or its latest move since. */
  decidedAt: z.nullable(isoDateSchema),
  /** Its payment on the app's chain, once signed: the mined one, else the latest. */
  txHash: z.optional(txHashSchema),
  reason: z.optional(withdrawalFailureSchema),
});

/** One operator's approval of a withdrawal. */
export const approvalSchema = z.object({ address: addressSchema, approvedAt: isoDateSchema });

export const opsWithdrawalDecide = defineEndpoint({
  method: 'POST',
  path: '/api/admin/withdrawal/decide',
  access: 'operator:finance',
  summary:
    'Approve a pending withdrawal for payment, or fail a pending or approved one (failed refunds it; `reason` is kept as its note); the same decision again returns it, anything else is 3006. ' +
    'Above APPROVAL_QUORUM_ABOVE an approval needs two different operators (the same one twice counts once): the first answers it pending, waitsForSecondApproval true. ' +
    "A frozen member's withdrawal cannot be approved (3008) (added)",
  query: undefined,
  body: z.strictObject({
    id: checked(z.string(), z.regex(/^[1-9]\d{0,17}$/, 'id')),
    status: z.enum(['approved', 'failed']),
    reason: z.optional(checked(z.string(), z.minLength(1), z.maxLength(500))),
  }),
  result: z.extend(withdrawalSchema, {
    /** What the operator who failed it wrote. */
    note: z.optional(z.string()),
    /** The operators who approved it so far. */
    approvals: z.optional(z.array(approvalSchema)),
    /** True when it waits for a second, different operator's approval. */
    waitsForSecondApproval: z.optional(z.boolean()),
  }),
});

const assetTotalsSchema = z.object({ members: balanceSchema, system: signedAmountSchema, total: signedAmountSchema });

export const opsLedger = defineEndpoint({
  method: 'GET',
  path: '/api/admin/ledger',
  access: 'operator:finance',
  summary: 'Ledger totals per asset (total must be "0") and the number of negative member accounts (must be 0) (added)',
  query: undefined,
  body: undefined,
  result: z.object({
    assets: z.object({ CREDIT: assetTotalsSchema, WPOS: assetTotalsSchema }),
    negativeAccounts: checked(z.number(), z.int(), z.minimum(0)),
  }),
});

/** A paid withdrawal whose payment the chain lost, mined again as reverted, or mined after its refund (reconcile). */
const lostPaymentSchema = z.object({
  withdrawalId: z.string(),
  address: addressSchema,
  /** What the member was (or is) to receive. */
  amount: balanceSchema,
  hash: txHashSchema,
  /** `reorganised`: the chain no longer has it (the same bytes go out again); `reverted`: mined again, reverted;
   * `paidAfterVoid`: mined although the withdrawal was refunded (paid twice). */
  reason: z.enum(['reorganised', 'reverted', 'paidAfterVoid']),
});

/** A credited top-up whose transaction a reorganisation removed from the chain for good (reconcile). */
const reorgedCreditSchema = z.object({
  txHash: txHashSchema,
  address: addressSchema,
  amount: balanceSchema,
  /** Whether it was credited to a member (else it is held). */
  credited: z.boolean(),
});

/** A sent payment not mined for longer than the payer waits (reconcile). */
const stuckPaymentSchema = z.object({
  withdrawalId: z.string(),
  hash: txHashSchema,
  nonce: z.string(),
  payer: addressSchema,
  ageSeconds: z.number(),
  /** `fee`: the fee is below what the chain asks; `nonceGap`: an earlier nonce of the hot wallet is not mined;
   * `rotatedKey`: signed by a hot wallet key the server no longer holds; `unmined`: none of these, yet not mined. */
  reason: z.enum(['fee', 'nonceGap', 'rotatedKey', 'unmined']),
});

/** A payment on chain the database never knew, found by the recovery from the chain (reconcile; opsUnknownPaymentSettle). */
export const unknownPaymentSchema = z.object({
  hash: txHashSchema,
  payer: addressSchema,
  nonce: z.string(),
  blockNumber: z.string(),
  /** `unknownWithdrawal`: it names a withdrawal the database has not; `notApproved`: one not waiting for a payment;
   * `untagged`: a token transfer naming none; `foreign`: another transaction of the key, moving no token. */
  kind: z.enum(['unknownWithdrawal', 'notApproved', 'untagged', 'foreign']),
  /** The token transfer's recipient, if it is one. */
  to: z.nullable(addressSchema),
  /** What it paid, in credit (0 for a transaction that moved no token). */
  amount: balanceSchema,
  /** The withdrawal its calldata names, if any. */
  withdrawalId: z.nullable(z.string()),
  /** The member whose address it paid, if one is: `debit` takes it from their credit. */
  member: z.nullable(addressSchema),
  foundAt: z.iso.datetime({ offset: true }),
  settlement: z.nullable(z.enum(['debit', 'writeOff'])),
  settledAt: z.nullable(z.iso.datetime({ offset: true })),
  settledBy: z.nullable(addressSchema),
});

/** The payer's journal: the nonce the chain shows for the hot wallet beside the first one the database does not account for. */
const payerJournalSchema = z.object({
  chainNonce: z.string(),
  knownNonce: z.string(),
  /** Nothing is signed while the chain shows more than the database knows, or found payments wait to be settled. */
  halted: z.boolean(),
  problem: z.nullable(z.string()),
});

/** Payouts paused on doubt: no new payment is signed until two finance operators resume them (opsPayoutsResume). */
export const payoutPauseSchema = z.object({
  id: z.string(),
  pausedAt: isoDateSchema,
  causes: z.array(z.object({ cause: pauseCauseSchema, detail: z.string() })),
});

export const opsReconcile = defineEndpoint({
  method: 'GET',
  path: '/api/admin/reconcile',
  access: 'operator:finance',
  summary:
    'Token on chain beside what the ledger owes, the difference computed, and the lists an operator must act on (lost payments, credits a reorganisation removed, stuck payments); ok is false when any list is not empty or the tokens are short (added)',
  query: undefined,
  body: undefined,
  result: z.object({
    /** False when `difference` is negative or any list below is not empty. */
    ok: z.boolean(),
    chain: z.object({ treasury: balanceSchema, payer: z.nullable(balanceSchema) }),
    ledger: z.object({ members: balanceSchema, payable: balanceSchema, heldTopUps: balanceSchema }),
    /** The token the ledger must be able to pay out: members + payable + heldTopUps. */
    owed: balanceSchema,
    /** Treasury and hot wallet (once when they are one), plus payments mined that the ledger has not posted yet. */
    backing: balanceSchema,
    /** backing − owed: below zero the tokens are short of what members own. */
    difference: signedAmountSchema,
    /** What the sent, not yet final, payments pay. */
    pendingPayments: balanceSchema,
    payer: z.object({
      address: z.nullable(addressSchema),
      /** What approved withdrawals not sent yet come to. */
      approved: balanceSchema,
      /** Why they wait: the hot wallet holds too little token (beside what is on its way) or gas money; else null. */
      waiting: z.nullable(z.enum(['token', 'gas'])),
      /** What the lost payments below come to. */
      lost: balanceSchema,
      /** The hot wallet's gas money, in wei of the chain's coin as a decimal integer (null without a payer). */
      gasWei: z.nullable(checked(z.string(), z.regex(/^(0|[1-9]\d*)$/, 'gasWei'))),
    }),
    lostPayments: z.array(lostPaymentSchema),
    reorgedCredits: z.array(reorgedCreditSchema),
    stuckPayments: z.array(stuckPaymentSchema),
    /** With a payer: its journal; payouts stop while it is halted. */
    journal: z.nullable(payerJournalSchema),
    /** Payouts paused on doubt, with the approvals to resume so far; null while payouts go on (added). */
    pause: z.nullable(z.extend(payoutPauseSchema, { approvals: z.array(addressSchema) })),
    /** Payments found on chain that the database never knew, not settled yet (opsUnknownPaymentSettle). */
    unknownPayments: z.array(unknownPaymentSchema),
    /** Transfers to the treasury in the blocks the watcher read that it did not credit or hold (re-read their range). */
    missedTopUps: z.array(z.object({ txHash: txHashSchema, from: addressSchema, amount: balanceSchema, blockNumber: z.string() })),
  }),
});

export const opsPaymentsRecover = defineEndpoint({
  method: 'POST',
  path: '/api/admin/payer/recover',
  access: 'operator:finance',
  summary:
    "Recovery from the chain: reads the hot wallet's transactions from the first nonce the database does not account for up to the chain's count at depth, " +
    'records a payment naming an approved withdrawal as sent, and every other transaction as an unknown payment; at most once per requestId of the operator (added)',
  query: undefined,
  body: z.strictObject({ requestId: requestIdSchema }),
  result: z.object({
    fromNonce: z.string(),
    toNonce: z.string(),
    recordedPayments: intAtLeast(0),
    fillers: intAtLeast(0),
    unknownPayments: intAtLeast(0),
    /** The nonce the scan stopped at because no node showed its transaction yet: run it again later. */
    stoppedAt: z.nullable(z.string()),
    knownNonce: z.string(),
  }),
});

export const opsUnknownPaymentSettle = defineEndpoint({
  method: 'POST',
  path: '/api/admin/unknownPayments/settle',
  access: 'operator:finance',
  summary:
    'Settle an unknown payment through the ledger: debit the member it paid, or write it off; under the policy (act unknownPaymentSettle: a second operator above what one settles alone), ' +
    'at most once per requestId of the operator (added)',
  query: undefined,
  body: z.strictObject({
    hash: txHashSchema,
    settlement: z.enum(['debit', 'writeOff']),
    reason: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(200)),
    requestId: requestIdSchema,
  }),
  result: z.object({ payment: unknownPaymentSchema, waitsForSecondApproval: z.boolean(), approvals: z.array(addressSchema) }),
});

export const opsPayoutsResume = defineEndpoint({
  method: 'POST',
  path: '/api/admin/payouts/resume',
  access: 'operator:finance',
  summary:
    'Resume payouts paused on doubt: the first finance operator\'s call is recorded and waits, a second, different one resumes them (the policy\'s payoutsResume: never alone); ' +
    'refused with 3010 while a cause still holds (a fresh reconcile and the chain\'s head), 3006 for a pause already resumed; at most once per requestId of the operator (added)',
  query: undefined,
  body: z.strictObject({ pauseId: checked(z.string(), z.regex(/^[1-9]\d{0,18}$/, 'pauseId')), requestId: requestIdSchema }),
  result: z.object({ pause: payoutPauseSchema, resumed: z.boolean(), waitsForSecondApproval: z.boolean(), approvals: z.array(addressSchema) }),
});

export const opsDistribute = defineEndpoint({
  method: 'POST',
  path: '/api/admin/distribute',
  access: 'operator:finance',
  summary:
    'Run the share-pool distribution of a day (default today UTC) from the funded pools account; again for the same day pays nothing more, ' +
    'except the pools the account could not cover before (added)',
  query: undefined,
  body: z.optional(z.strictObject({ day: z.optional(z.iso.date()) })),
  result: z.object({
    pools: checked(z.number(), z.int(), z.minimum(0)),
    paid: balanceSchema,
    /** Pools left unpaid because the funded pools account held less than their payout (fund it with opsFund, then run again). */
    unfunded: checked(z.number(), z.int(), z.minimum(0)),
  }),
});

/** A block number as a decimal string (no leading zero). */
const blockNumberSchema = checked(z.string(), z.regex(/^(0|[1-9]\d{0,17})$/, 'blockNumber'));

export const opsTopUpsReread = defineEndpoint({
  method: 'POST',
  path: '/api/admin/topUps/reread',
  access: 'operator:finance',
  summary:
    'Read the top-ups of blocks fromBlock..toBlock again (at most 10,000 blocks, all at depth; else 1001) and credit those not credited yet, each once; ' +
    'the watcher\'s cursor stays. found: top-ups in the range; credited and held: those this call credited (added)',
  query: undefined,
  body: z.strictObject({ fromBlock: blockNumberSchema, toBlock: blockNumberSchema }),
  result: z.object({ found: intAtLeast(0), credited: intAtLeast(0), held: intAtLeast(0) }),
});

/** An alert: one time a rule fired, with when it resolved (null while it fires). */
export const alertSchema = z.object({
  id: z.string(),
  /** The rule's stable name (Alertmanager's `alertname`): ReconcileNotOk, PaymentLost, PayerWaiting, ... */
  rule: z.string(),
  severity: z.enum(['critical', 'warning']),
  summary: z.string(),
  /** What the rule saw when it fired. */
  description: z.string(),
  startedAt: isoDateSchema,
  endedAt: z.nullable(isoDateSchema),
});

export const opsAlerts = defineEndpoint({
  method: 'GET',
  path: '/api/admin/alerts',
  access: 'operator',
  summary: 'The alerts firing now (oldest first) and the 20 that resolved last (newest first); every role sees them (added)',
  query: undefined,
  body: undefined,
  result: z.object({ firing: z.array(alertSchema), resolved: z.array(alertSchema) }),
});
