/**
 * The checks of the three-instance run after the load (tests/balancer/support/threeInstancesRun.ts): what the answers
 * imply beside what the database and the chain hold. Each returns the problems it found (none when all is well) and its
 * figures.
 */
import { sql } from 'drizzle-orm';
import { createPublicClient, http, parseAbiItem, type Address, type Hex } from 'viem';
import { z } from 'zod';
import { formatMinor, toMinor } from '../../../api-schema/amount';
import { queryRows, type Db } from '../../../server/db/client';
import { withdrawalStatusSql } from '../../../server/ledger/withdrawalLifecycle';
import type { Client, Member, Sent } from './balancerClient';
import { withdrawalId } from './load';

const big = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));

export interface Withdrawal {
  id: string;
  address: string;
  amount: bigint;
  fee: bigint;
  status: string;
}

/** Every withdrawal with its status now (the suite's query: the pending transfer's stage). */
export function withdrawals(db: Db): Promise<Withdrawal[]> {
  return queryRows(
    db,
    sql`SELECT w.id::text AS id, m.address, w.amount, w.fee, ${withdrawalStatusSql} AS status
        FROM withdrawals w JOIN ledger_pending d ON d.id = w.id JOIN members m ON m.id = w.member_id ORDER BY w.id`,
    z.object({ id: z.string(), address: z.string(), amount: big, fee: big, status: z.string() }),
  );
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const resultField = (sent: Sent, field: string) => {
  const result = sent.answer?.result;
  return typeof result === 'object' && result !== null && field in result ? text((result as Record<string, unknown>)[field]) : '';
};

/**
 * The answers beside the books: every request answered with code 0 is in the database once (its request id kept
 * with code 0, its entries there), none else; each member's balances are what those answers, the operator's
 * refusals and the orders imply; a replay answered what its first did.
 */
export async function checkBooks(db: Db, client: Client, members: Member[], byId: Map<string, Withdrawal>): Promise<{ problems: string[]; acknowledged: number; entries: number; payouts: number }> {
  const problems: string[] = [];
  const firsts = client.sent.filter((sent) => !sent.replayOf && sent.call.body?.requestId !== undefined);
  const acked = firsts.filter((sent) => sent.answer?.code === 0);
  for (const replay of client.sent.filter((sent) => sent.replayOf)) {
    if (JSON.stringify(replay.answer) !== JSON.stringify(replay.replayOf?.answer)) problems.push(`replay of ${replay.call.kind} answered ${JSON.stringify(replay.answer)}, first ${JSON.stringify(replay.replayOf?.answer)}`);
  }
  // Each request id once among the outcomes kept with code 0, and exactly the acknowledged ones.
  const ours = new Set(firsts.map((sent) => text(sent.call.body?.requestId)));
  const kept = (await queryRows(db, sql`SELECT request_id AS "requestId" FROM idempotency_keys WHERE code = 0`, z.object({ requestId: z.string() }))).filter((row) => ours.has(row.requestId));
  const keptIds = new Set(kept.map((row) => row.requestId));
  if (kept.length !== keptIds.size) problems.push(`${kept.length - keptIds.size} request ids kept twice with code 0`);
  const missing = acked.filter((sent) => !keptIds.has(text(sent.call.body?.requestId)));
  if (missing.length > 0) problems.push(`${missing.length} acknowledged requests not in idempotency_keys: ${missing.slice(0, 3).map((sent) => sent.call.kind).join(', ')}`);
  if (keptIds.size !== acked.length) problems.push(`${keptIds.size} request ids kept with code 0, ${acked.length} acknowledged`);

  // Balances and entries: what the acknowledged answers imply.
  const expected = members.map(() => ({ CREDIT: 0n, WPOS: 0n }));
  let entries = 0;
  const add = (member: number | undefined, asset: 'CREDIT' | 'WPOS', amount: bigint) => {
    const balances = expected[member ?? -1];
    if (balances) balances[asset] += amount;
    entries += 1;
  };
  const memberOf = (address: unknown) => members.findIndex((member) => member.address === address);
  for (const sent of acked) {
    const body = sent.call.body ?? {};
    const amount = typeof body.amount === 'string' ? toMinor(body.amount) : 0n;
    if (sent.call.kind === 'grant') add(sent.call.member, body.asset === 'WPOS' ? 'WPOS' : 'CREDIT', amount);
    if (sent.call.kind === 'withdraw') {
      add(sent.call.member, 'CREDIT', -amount);
      const withdrawal = byId.get(withdrawalId(sent.answer?.result));
      if (!withdrawal) problems.push(`withdrawal ${withdrawalId(sent.answer?.result)} answered but not in the database`);
      if (withdrawal?.status === 'failed') add(sent.call.member, 'CREDIT', amount);
    }
    if (sent.call.kind === 'transfer') {
      add(sent.call.member, 'WPOS', -amount);
      add(memberOf(body.toAddress), 'WPOS', amount);
    }
    if (sent.call.kind === 'exchange') {
      const paid = body.from === 'WPOS' ? 'WPOS' : 'CREDIT';
      add(sent.call.member, paid, -amount);
      add(sent.call.member, paid === 'WPOS' ? 'CREDIT' : 'WPOS', toMinor(resultField(sent, 'received')));
    }
    if (sent.call.kind === 'settle') add(sent.call.member, 'CREDIT', -toMinor(resultField(sent, 'amount')));
  }
  // The share pools' payouts: what the runs paid is in the members' entries, each pool and day once.
  const distributed = await queryRows(
    db,
    sql`SELECT m.address, count(*)::int AS n, sum(e.amount) AS amount FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
        JOIN ledger_accounts a ON a.id = e.account_id JOIN members m ON m.id = a.member_id WHERE t.type = 'distribution' GROUP BY m.address`,
    z.object({ address: z.string(), n: z.number(), amount: big }),
  );
  for (const row of distributed) {
    const index = memberOf(row.address);
    const balances = expected[index];
    if (balances) balances.WPOS += row.amount;
    entries += row.n;
  }
  const [payouts] = await queryRows(db, sql`SELECT count(*)::int AS n, coalesce(sum(paid), 0) AS paid FROM share_pool_payouts`, z.object({ n: z.number(), paid: big }));
  const paidOut = distributed.reduce((sum, row) => sum + row.amount, 0n);
  if (payouts?.paid !== paidOut) problems.push(`share pools: payouts say ${payouts?.paid} paid, the members' entries ${paidOut}`);
  const runs = client.sent.filter((sent) => sent.call.kind === 'distribute');
  const answered = runs.reduce((sum, sent) => sum + toMinor(resultField(sent, 'paid') || '0'), 0n);
  // A run cut and sent again answers only what the second attempt paid: the sums agree when none was.
  if (runs.every((sent) => sent.attempts.length === 1) && answered !== paidOut) problems.push(`share pools: the runs answered ${formatMinor(answered)} paid, the entries ${formatMinor(paidOut)}`);
  if ((payouts?.n ?? 0) === 0) problems.push('share pools: no pool paid during the run');
  for (const [index, member] of members.entries()) {
    const me = await client.must(
      { kind: 'meInfo', method: 'GET', url: '/api/member/meInfo', auth: { authorization: member.auth } },
      z.object({ creditBalance: z.string(), wposBalance: z.string() }),
    );
    const want = { creditBalance: formatMinor(expected[index]?.CREDIT ?? 0n), wposBalance: formatMinor(expected[index]?.WPOS ?? 0n) };
    if (me.creditBalance !== want.creditBalance || me.wposBalance !== want.wposBalance) problems.push(`member ${index}: meInfo ${JSON.stringify(me)}, the answers imply ${JSON.stringify(want)}`);
  }
  const [row] = await queryRows(
    db,
    sql`SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.member_id IS NOT NULL`,
    z.object({ n: z.number() }),
  );
  if (row?.n !== entries) problems.push(`${row?.n} member entries in the ledger, the answers imply ${entries}`);
  return { problems, acknowledged: acked.length, entries, payouts: payouts?.n ?? 0 };
}

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/**
 * Every withdrawal done is paid exactly once on chain, by the hot wallet, to its member, of its amount less the fee;
 * nothing else left the hot wallet for a member, and nothing was paid for one that failed.
 */
export async function checkPayments(db: Db, node: { url: string; token: Address; payer: Address; decimals: number }, all: Withdrawal[]): Promise<{ problems: string[]; payments: number }> {
  const problems: string[] = [];
  const client = createPublicClient({ transport: http(node.url) });
  const logs = await client.getLogs({ address: node.token, event: transferEvent, args: { from: node.payer }, fromBlock: 0n, toBlock: 'latest' });
  const hashes = await queryRows(db, sql`SELECT hash, withdrawal_id::text AS "withdrawalId" FROM payments`, z.object({ hash: z.string(), withdrawalId: z.string() }));
  const withdrawalOf = new Map(hashes.map((row) => [row.hash.toLowerCase(), row.withdrawalId]));
  const paid = new Map<string, { to: string; value: bigint }[]>();
  for (const log of logs) {
    const id = withdrawalOf.get((log.transactionHash as Hex).toLowerCase());
    // The payer's zero-value fills of a nonce go to itself: not a payment.
    if (log.args.to?.toLowerCase() === node.payer.toLowerCase()) continue;
    if (!id) {
      problems.push(`a transfer from the hot wallet in ${log.transactionHash} is no withdrawal's payment`);
      continue;
    }
    paid.set(id, [...(paid.get(id) ?? []), { to: log.args.to ?? '', value: log.args.value ?? 0n }]);
  }
  const scale = 10n ** BigInt(node.decimals - 6);
  for (const withdrawal of all) {
    const payments = paid.get(withdrawal.id) ?? [];
    if (withdrawal.status === 'done') {
      const want = { to: withdrawal.address.toLowerCase(), value: (withdrawal.amount - withdrawal.fee) * scale };
      if (payments.length !== 1 || payments[0]?.to.toLowerCase() !== want.to || payments[0]?.value !== want.value) {
        problems.push(`withdrawal ${withdrawal.id} (done) paid ${payments.length} times: ${JSON.stringify(payments, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))}`);
      }
    } else if (payments.length > 0) problems.push(`withdrawal ${withdrawal.id} (${withdrawal.status}) has ${payments.length} payments on chain`);
  }
  return { problems, payments: [...paid.values()].reduce((sum, list) => sum + list.length, 0) };
}
