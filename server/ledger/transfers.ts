/**
 * Single movements inside the caller's transaction, as one-request posts of the ledger engine (server/ledger/
 * engine.ts): for the operator's work and the tests that set up balances. Every flow of members' money goes through
 * the ledger batcher instead, with its at-most-once key.
 */
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import type { Db } from '../db/client';
import type { Asset } from './accounts';
import { postRequests, type TransferType } from './engine';

export type { TransferType } from './engine';

export interface MemberLeg {
  entryId: bigint;
  balanceAfter: bigint;
}

export interface MemberTransfer {
  asset: Asset;
  type: TransferType;
  memberId: number;
  /** The system account on the other side. */
  systemAccountId: number;
  /** Minor units, > 0. */
  amount: bigint;
  memo?: string | undefined;
  now: Date;
}

const legResult = { id: '$entry', balanceAfter: '$balanceAfter' };
const legAnswer = z.object({ id: z.string(), balanceAfter: z.string() });

async function postMemberLeg(tx: Db, transfer: MemberTransfer, direction: 'credit' | 'debit'): Promise<MemberLeg | undefined> {
  const member = { member: transfer.memberId };
  const system = { system: transfer.systemAccountId };
  const [outcome] = await postRequests(tx, [
    {
      now: transfer.now,
      legs: [
        {
          asset: transfer.asset,
          type: transfer.type,
          from: direction === 'credit' ? system : member,
          to: direction === 'credit' ? member : system,
          amount: transfer.amount,
          memo: transfer.memo,
        },
      ],
      result: legResult,
    },
  ]);
  if (outcome?.code !== ApiCode.ok) return undefined;
  const result = legAnswer.parse(outcome.result);
  return { entryId: BigInt(result.id), balanceAfter: toMinor(result.balanceAfter) };
}

/**
 * Moves `amount` from a system account to a member's account (opened on first use), with the member's entry.
 *
 * @param tx - the caller's transaction
 * @param transfer - asset, type, member, system account, amount, optional memo and withdrawal, time
 * @returns the member's entry and the member's balance after it
 * @example
 * const leg = await creditMember(tx, { asset: 'CREDIT', type: 'reward', memberId, systemAccountId: 1, amount: 5_000_000n, now });
 */
export async function creditMember(tx: Db, transfer: MemberTransfer): Promise<MemberLeg> {
  const leg = await postMemberLeg(tx, transfer, 'credit');
  if (!leg) throw new Error('credit transfer wrote nothing');
  return leg;
}

/**
 * Moves `amount` from a member's account to a system account, only if the balance covers it.
 *
 * @param tx - the caller's transaction
 * @param transfer - asset, type, member, system account, amount, optional memo and withdrawal, time
 * @returns the member's entry and the balance after it; undefined when the balance is short (or
 *   the member has no account yet), and then nothing was written
 * @example
 * const leg = await debitMember(tx, { asset: 'WPOS', type: 'transfer', memberId, systemAccountId: 14, amount, now });
 */
export async function debitMember(tx: Db, transfer: MemberTransfer): Promise<MemberLeg | undefined> {
  return postMemberLeg(tx, transfer, 'debit');
}
