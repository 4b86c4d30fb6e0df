/**
 * Unknown payments (docs/API.md, "Credit on chain: the payer's journal"): what the recovery from the chain found the
 * hot wallet paid that the database never knew (server/chain/payer/recovery.ts). Reconcile lists the open ones, and
 * payouts stay halted until each is settled through the ledger by finance under the operators' policy: `debit` takes
 * the amount from the credit of the member it paid (the withdrawal the database lost, booked again as paid out on
 * chain), `writeOff` books it as the house's loss (write_offs). Nothing else moves it.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import { bigintText, queryRows, type Db } from '../db/client';
import { AlreadyDecidedError, errorOfApiCode, InvalidParametersError, NotFoundError } from '../errors';
import { systemAccountId } from '../ledger/accounts';
import { postRequests, type LedgerRequest } from '../ledger/engine';
import type { OperatorActor } from '../ops/actor';
import { recordPolicyUse, type OperatorsPolicy } from '../ops/policy';
import { decideWithSecondApproval } from '../ops/secondApprovals';

export type Settlement = 'debit' | 'writeOff';

const unknownRow = z.object({
  hash: z.string(),
  payer: z.string(),
  nonce: bigintText,
  blockNumber: bigintText,
  kind: z.enum(['unknownWithdrawal', 'notApproved', 'untagged', 'foreign']),
  toAddress: z.string().nullable(),
  amount: bigintText,
  namedWithdrawalId: bigintText.nullable(),
  memberId: z.number().nullable(),
  memberAddress: z.string().nullable(),
  foundAt: z.coerce.date(),
  settlement: z.enum(['debit', 'writeOff']).nullable(),
  settledAt: z.coerce.date().nullable(),
  settledBy: z.string().nullable(),
});
type UnknownRow = z.output<typeof unknownRow>;

/** An unknown payment as the contract shows it (api-schema/opsMoney.ts). */
export function unknownPaymentView(row: UnknownRow) {
  return {
    hash: row.hash,
    payer: row.payer,
    nonce: row.nonce.toString(),
    blockNumber: row.blockNumber.toString(),
    kind: row.kind,
    to: row.toAddress,
    amount: formatMinor(row.amount),
    withdrawalId: row.namedWithdrawalId?.toString() ?? null,
    member: row.memberAddress,
    foundAt: row.foundAt.toISOString(),
    settlement: row.settlement,
    settledAt: row.settledAt?.toISOString() ?? null,
    settledBy: row.settledBy,
  };
}

const selectSql = sql`SELECT u.hash, u.payer, u.nonce, u.block_number AS "blockNumber", u.kind, u.to_address AS "toAddress", u.amount,
    u.named_withdrawal_id AS "namedWithdrawalId", u.member_id AS "memberId", m.address AS "memberAddress", u.found_at AS "foundAt",
    u.settlement, u.settled_at AS "settledAt", u.settled_by AS "settledBy"
  FROM unknown_payments u LEFT JOIN members m ON m.id = u.member_id`;

/**
 * The unknown payments not settled yet, in nonce order.
 *
 * @param db - database handle
 * @returns the rows as the contract shows them
 * @example
 * const open = await openUnknownPayments(db);
 */
export async function openUnknownPayments(db: Db): Promise<ReturnType<typeof unknownPaymentView>[]> {
  const rows = await queryRows(db, sql`${selectSql} WHERE u.settled_at IS NULL ORDER BY u.payer, u.nonce`, unknownRow);
  return rows.map(unknownPaymentView);
}

/** The ledger request a settlement posts (none for a transaction that moved no token). */
function settlementRequest(row: UnknownRow, settlement: Settlement, reason: string, now: Date): LedgerRequest | null {
  if (row.amount === 0n) return null;
  const chainAccount = { system: systemAccountId('CREDIT', 'chain') };
  if (settlement === 'writeOff') {
    return { now, legs: [{ asset: 'CREDIT', type: 'writeOff', from: { system: systemAccountId('CREDIT', 'write_offs') }, to: chainAccount, amount: row.amount, memo: reason }] };
  }
  if (row.memberId === null) throw new InvalidParametersError('settlement');
  // As a posted withdrawal: out of the member's credit to the chain, and the member's record shows it as one, done,
  // with its hash (server/ledger/queries.ts). A frozen member's credit too (an operator's act).
  return { now, debitFrozen: true, legs: [{ asset: 'CREDIT', type: 'unknownPayment', from: { member: row.memberId }, to: chainAccount, amount: row.amount, memo: row.hash }] };
}

export interface SettleInput {
  hash: string;
  settlement: Settlement;
  reason: string;
  now: Date;
}

/**
 * Settles one unknown payment in the act's transaction, or records the first approval when it needs a second
 * operator. Settling it again the same way changes nothing; another way is refused (3006).
 *
 * @param tx - the act's transaction
 * @param policy - the server's policy
 * @param input - the payment's hash, how, why, when
 * @param actor - the operator
 * @returns the payment as it is now, whether it waits for a second approval, and whether this call changed anything
 * @throws NotFoundError (4004), AlreadyDecidedError (3006), InvalidParametersError (1001: a debit of no member),
 *   the policy's refusals, and the ledger's (3001: the member's credit does not cover it)
 * @example
 * const settled = await settleUnknownPayment(tx, deps.policy, { hash, settlement: 'debit', reason, now }, actor);
 */
export async function settleUnknownPayment(tx: Db, policy: OperatorsPolicy, input: SettleInput, actor: Pick<OperatorActor, 'address' | 'roles'>) {
  const [row] = await queryRows(tx, sql`${selectSql} WHERE lower(u.hash) = lower(${input.hash}) FOR UPDATE OF u`, unknownRow);
  if (!row) throw new NotFoundError();
  if (row.settledAt !== null) {
    if (row.settlement !== input.settlement) throw new AlreadyDecidedError();
    return { payment: unknownPaymentView(row), waitsForSecondApproval: false, approvals: [] as string[], changed: false };
  }
  const request = settlementRequest(row, input.settlement, input.reason, input.now);
  const member = input.settlement === 'debit' && row.memberId !== null && row.memberAddress !== null ? { id: row.memberId, address: row.memberAddress } : undefined;
  const check = { act: 'unknownPaymentSettle' as const, actor, amount: row.amount, member };
  const decision = await decideWithSecondApproval(tx, policy, { check, target: `unknownPayment:${row.hash}`, subject: input.settlement, now: input.now });
  if (!decision.proceed) return { payment: unknownPaymentView(row), waitsForSecondApproval: true, approvals: decision.approvals, changed: decision.changed };
  if (request) {
    const [outcome] = await postRequests(tx, [request]);
    if (outcome?.code !== ApiCode.ok) throw errorOfApiCode((outcome?.code ?? ApiCode.internal) as ApiCodeValue);
  }
  await recordPolicyUse(tx, { act: 'unknownPaymentSettle', operator: decision.requestedBy, memberId: member?.id, amount: row.amount, confirmedBy: decision.confirmedBy, now: input.now });
  await tx.execute(
    sql`UPDATE unknown_payments SET settlement = ${input.settlement}, settled_at = ${input.now.toISOString()}::timestamptz, settled_by = ${actor.address}, settle_reason = ${input.reason}
        WHERE hash = ${row.hash}`,
  );
  const settled = { ...row, settlement: input.settlement, settledAt: input.now, settledBy: actor.address };
  return { payment: unknownPaymentView(settled), waitsForSecondApproval: false, approvals: decision.approvals, changed: true };
}
