/**
 * The figures the business gauges show (server/metrics/business.ts) and the alerts judge, read at once: the queues
 * from the database, reconcile's verdict and the hot wallet from the newest scheduled run (reconcile_runs), the
 * chain's head and the watcher's cursor, and the payer's and watcher's last rounds on this instance. Amounts stay
 * bigint minor units here; only the gauges turn them into numbers.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import type { Chain } from '../chain/chain';
import { heldTopUpTotals } from '../chain/heldTopUps';
import type { LoopHealth } from '../chain/pollLoop';
import { openPause } from '../chain/payer/pause';
import type { PayoutPause } from '../chain/payer/types';
import { latestReconcileRun, type ReconcileRun } from '../chain/reconcileSchedule';
import type { Clock } from '../clock';
import { bigintText, queryRows, type Db } from '../db/client';
import { withinTime } from '../withinTime';
import { stageSql, WithdrawalStage } from '../ledger/withdrawalLifecycle';

/** The withdrawal stages that wait for something: an operator, the payer, the chain. */
export const OPEN_STAGES = [WithdrawalStage.held, WithdrawalStage.approved, WithdrawalStage.sent] as const;
export type OpenStage = (typeof OPEN_STAGES)[number];

/** The days of payments a runway is measured on. */
export const RUNWAY_WINDOW_DAYS = 7;

export interface BusinessFigures {
  /** When they were read (the server's clock). */
  at: Date;
  withdrawals: Record<OpenStage, { count: number; oldestAgeSeconds: number }>;
  /** Withdrawals above the quorum with one approval, waiting for a second operator. */
  approvalsWaiting: { count: number; oldestAgeSeconds: number };
  heldTopUps: { count: number; amount: bigint };
  /** The newest scheduled reconcile, if one ran. */
  reconcile: ReconcileRun | undefined;
  /** From that run: the hot wallet's token (minor units) and gas (wei), with how long each lasts at the last week's pace. */
  hotWallet: { token: bigint; gasWei: bigint; tokenRunwaySeconds: number; gasRunwaySeconds: number } | undefined;
  /** With a chain: the head's age, and how many blocks the watcher's cursor is behind it (undefined: unreadable). */
  chain: { headAgeSeconds: number; headBlock: bigint; watcherBehindBlocks: number | undefined } | undefined;
  /** A chain is connected but did not answer this read. */
  chainUnreachable: boolean;
  /** Payouts paused on doubt (server/chain/payer/pause.ts), or null while they go on. */
  payoutPause: PayoutPause | null;
  /** Seconds since this instance's payer and watcher last completed a round (undefined: not running here). */
  payerLagSeconds: number | undefined;
  watcherLagSeconds: number | undefined;
}

export interface BusinessSources {
  db: Db;
  now: Clock;
  /** APPROVAL_QUORUM_ABOVE: above it a withdrawal needs two approvals. */
  approvalQuorumAbove: bigint;
  /** Read at each call: the app connects the chain as it starts. */
  chain?: (() => { chain: Chain; payer: LoopHealth | undefined; watcher: LoopHealth } | undefined) | undefined;
}

const queueRow = z.object({ stage: z.string(), count: z.number(), oldest: z.coerce.date().nullable() });
const waitingRow = z.object({ count: z.number(), oldest: z.coerce.date().nullable() });
const paceRow = z.object({ payments: z.number(), paid: bigintText, gasWei: bigintText });

/** Seconds from `since` to `now` (0 for none). */
export const ageSeconds = (now: Date, since: Date | null) => (since ? Math.max(0, (now.getTime() - since.getTime()) / 1000) : 0);
const sinceSeconds = (now: Date, health: LoopHealth | undefined) => {
  if (!health?.running || !health.startedAt) return undefined;
  return ageSeconds(now, health.lastSuccessAt ?? health.startedAt);
};

/** Seconds `balance` lasts at `perWindow` spent over RUNWAY_WINDOW_DAYS (Infinity when nothing was spent). */
function runwaySeconds(balance: bigint, perWindow: bigint): number {
  if (perWindow <= 0n) return Number.POSITIVE_INFINITY;
  // Whole seconds in bigint, then a number: exact enough for a gauge, never a float of money.
  return Number((balance * BigInt(RUNWAY_WINDOW_DAYS * 86_400)) / perWindow);
}

async function queues(db: Db, now: Date, quorumAbove: bigint, chainId: number | undefined) {
  const [stages, waiting, held] = await Promise.all([
    queryRows(
      db,
      sql`SELECT d.stage, count(*)::int AS count, min(w.created_at) AS oldest FROM ledger_pending d JOIN withdrawals w ON w.id = d.id
          WHERE d.stage IN (${sql.join(OPEN_STAGES.map(stageSql), sql`, `)}) GROUP BY d.stage`,
      queueRow,
    ),
    queryRows(
      db,
      sql`SELECT count(*)::int AS count, min(a.first) AS oldest FROM ledger_pending d JOIN withdrawals w ON w.id = d.id
          JOIN LATERAL (SELECT min(created_at) AS first, count(*) AS approvals FROM withdrawal_approvals WHERE withdrawal_id = w.id) a ON true
          WHERE d.stage = ${stageSql(WithdrawalStage.held)} AND w.amount > ${quorumAbove.toString()}::bigint AND a.approvals = 1`,
      waitingRow,
    ),
    chainId === undefined ? Promise.resolve({ count: 0, amount: 0n }) : heldTopUpTotals(db, chainId),
  ]);
  const withdrawals = Object.fromEntries(OPEN_STAGES.map((stage) => [stage, { count: 0, oldestAgeSeconds: 0 }])) as BusinessFigures['withdrawals'];
  for (const row of stages) {
    if ((OPEN_STAGES as readonly string[]).includes(row.stage)) withdrawals[row.stage as OpenStage] = { count: row.count, oldestAgeSeconds: ageSeconds(now, row.oldest) };
  }
  const [wait] = waiting;
  return {
    withdrawals,
    approvalsWaiting: { count: wait?.count ?? 0, oldestAgeSeconds: ageSeconds(now, wait?.oldest ?? null) },
    heldTopUps: held,
  };
}

/** The last RUNWAY_WINDOW_DAYS of paid withdrawals: what they paid (minor units) and the gas they cost (wei, at their fee cap). */
async function pace(db: Db, now: Date) {
  const [row] = await queryRows(
    db,
    sql`SELECT count(*)::int AS payments, coalesce(sum(w.amount - w.fee), 0) AS paid, coalesce(sum(p.gas_used * p.max_fee_per_gas::numeric), 0)::text AS "gasWei"
        FROM payments p JOIN withdrawals w ON w.id = p.withdrawal_id
        WHERE p.receipt_status = 1 AND p.block_hash IS NOT NULL
          AND p.created_at > ${now.toISOString()}::timestamptz - ${`${RUNWAY_WINDOW_DAYS} days`}::interval`,
    paceRow,
  );
  return row ?? { payments: 0, paid: 0n, gasWei: 0n };
}

/** How long the chain may take to answer a read of the figures before it counts as unreachable. */
const CHAIN_READ_TIMEOUT_MS = 2_000;

async function chainFigures(db: Db, chain: Chain, now: Date): Promise<BusinessFigures['chain']> {
  const [head, cursor] = await Promise.all([
    withinTime(chain.client.getBlock({ blockTag: 'latest', includeTransactions: false }), CHAIN_READ_TIMEOUT_MS),
    queryRows(db, sql`SELECT max(number) AS number FROM chain_blocks WHERE chain_id = ${chain.settings.chainId}::int`, z.object({ number: bigintText.nullable() })),
  ]);
  const kept = cursor[0]?.number ?? null;
  return {
    headAgeSeconds: Math.max(0, now.getTime() / 1000 - Number(head.timestamp)),
    headBlock: head.number,
    watcherBehindBlocks: kept === null ? undefined : Math.max(0, Number(head.number - kept)),
  };
}

/**
 * Reads the figures once.
 *
 * @param sources - database, clock, the quorum, the chain and this instance's rounds
 * @returns the figures; a chain that does not answer leaves `chain` undefined, never fails the rest
 * @example
 * const figures = await readBusinessFigures({ db, now, approvalQuorumAbove: 1000_000000n });
 */
export async function readBusinessFigures(sources: BusinessSources): Promise<BusinessFigures> {
  const now = sources.now();
  const connected = sources.chain?.();
  const [queued, reconcile, spent, chain, payoutPause] = await Promise.all([
    queues(sources.db, now, sources.approvalQuorumAbove, connected?.chain.settings.chainId),
    latestReconcileRun(sources.db),
    pace(sources.db, now),
    connected ? chainFigures(sources.db, connected.chain, now).catch(() => 'unreachable' as const) : Promise.resolve(undefined),
    openPause(sources.db),
  ]);
  const payer = reconcile?.result.payer;
  const hotWallet =
    payer?.address && reconcile?.result.chain.payer != null && payer.gasWei !== null
      ? {
          token: toMinor(reconcile.result.chain.payer),
          gasWei: BigInt(payer.gasWei),
          tokenRunwaySeconds: runwaySeconds(toMinor(reconcile.result.chain.payer), spent.paid),
          gasRunwaySeconds: runwaySeconds(BigInt(payer.gasWei), spent.gasWei),
        }
      : undefined;
  return {
    at: now,
    ...queued,
    reconcile,
    hotWallet,
    chain: chain === 'unreachable' ? undefined : chain,
    chainUnreachable: chain === 'unreachable',
    payoutPause,
    payerLagSeconds: sinceSeconds(now, connected?.payer),
    watcherLagSeconds: sinceSeconds(now, connected?.watcher),
  };
}
