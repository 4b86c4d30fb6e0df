/**
 * The desk's overview (docs/API.md, "Operators: the overview"): the business figures the gauges and alerts read
 * (server/metrics/businessFigures.ts), money across the chain boundary per UTC day, the orders to ship, the alerts
 * firing, each part for the roles that act on it. Money across the chain boundary is what the ledger moved from or
 * to the `chain` system account: top-ups in; payouts, returns of held top-ups and settled unknown payments out.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { z as zm } from 'zod/mini';
import { formatMinor } from '../../api-schema/amount';
import { OVERVIEW_DAYS, type overviewSchema } from '../../api-schema/opsOverview';
import { listAlerts } from '../alerts/alerts';
import { bigintText, queryRows, type Db } from '../db/client';
import { systemAccountId } from '../ledger/accounts';
import { ageSeconds, type BusinessFigures } from '../metrics/businessFigures';
import { holdsRole, type OperatorActor } from './actor';

type Overview = zm.output<typeof overviewSchema>;

/** The CREDIT `chain` account, 7: the partial indexes of migration 0038 name it as a literal. */
export const CHAIN_ACCOUNT_ID = systemAccountId('CREDIT', 'chain');

const DAY_MS = 86_400_000;
const dayRow = z.object({ day: z.string(), in: bigintText, out: bigintText });
const waitingRow = z.object({ count: z.number(), oldest: z.coerce.date().nullable() });

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Money in and out per UTC day, OVERVIEW_DAYS days up to today: two index scans of the transfers from and to the
 * chain account (ledger_transfers_chain_in_idx, _out_idx), never the whole journal.
 */
export async function moneyByDay(db: Db, now: Date): Promise<{ day: string; in: bigint; out: bigint }[]> {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (OVERVIEW_DAYS - 1) * DAY_MS);
  const from = first.toISOString();
  const account = CHAIN_ACCOUNT_ID.toString();
  const rows = await queryRows(
    db,
    sql`SELECT day, sum(in_amount)::text AS "in", sum(out_amount)::text AS "out" FROM (
          SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, amount AS in_amount, 0::bigint AS out_amount
            FROM ledger_transfers WHERE debit_account_id = ${sql.raw(account)} AND created_at >= ${from}::timestamptz
          UNION ALL
          SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 0::bigint, amount
            FROM ledger_transfers WHERE credit_account_id = ${sql.raw(account)} AND created_at >= ${from}::timestamptz
        ) moved GROUP BY day`,
    dayRow,
  );
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return Array.from({ length: OVERVIEW_DAYS }, (_, index) => {
    const day = utcDay(new Date(first.getTime() + index * DAY_MS));
    const row = byDay.get(day);
    return { day, in: row?.in ?? 0n, out: row?.out ?? 0n };
  });
}

async function ordersToShip(db: Db, now: Date) {
  const [row] = await queryRows(db, sql`SELECT count(*)::int AS count, min(created_at) AS oldest FROM orders WHERE status = 'paid'`, waitingRow);
  return { count: row?.count ?? 0, oldestAgeSeconds: ageSeconds(now, row?.oldest ?? null) };
}

const days = (seconds: number) => (Number.isFinite(seconds) ? Math.floor((seconds / 86_400) * 10) / 10 : null);

/**
 * The overview as this operator sees it.
 *
 * @param db - the database
 * @param figures - the business figures, read now
 * @param actor - the operator asking: their roles decide which parts they get
 * @returns the overview; parts of other roles are null
 * @example
 * const overview = await readOverview(db, await app.businessFigures(), requireOperator(request));
 */
export async function readOverview(db: Db, figures: BusinessFigures, actor: Pick<OperatorActor, 'roles'>): Promise<Overview> {
  const finance = holdsRole(actor, 'finance');
  const support = holdsRole(actor, 'support');
  const [money, toShip, alerts] = await Promise.all([
    finance ? moneyByDay(db, figures.at) : Promise.resolve(null),
    support ? ordersToShip(db, figures.at) : Promise.resolve(null),
    listAlerts(db, 0),
  ]);
  const { withdrawals, approvalsWaiting, heldTopUps, hotWallet, reconcile, chain } = figures;
  return {
    at: figures.at.toISOString(),
    money: money && {
      days: money.map((day) => ({ day: day.day, in: formatMinor(day.in), out: formatMinor(day.out) })),
      total: { in: formatMinor(money.reduce((sum, day) => sum + day.in, 0n)), out: formatMinor(money.reduce((sum, day) => sum + day.out, 0n)) },
    },
    withdrawals: finance
      ? { pending: withdrawals.held, approved: withdrawals.approved, sent: withdrawals.sent, approvalsWaiting, heldTopUps: { count: heldTopUps.count, amount: formatMinor(heldTopUps.amount) } }
      : null,
    orders: toShip && { toShip },
    runway:
      finance && hotWallet
        ? { token: formatMinor(hotWallet.token), gasWei: hotWallet.gasWei.toString(), tokenDays: days(hotWallet.tokenRunwaySeconds), gasDays: days(hotWallet.gasRunwaySeconds) }
        : null,
    lags: {
      payerSeconds: figures.payerLagSeconds ?? null,
      watcherSeconds: figures.watcherLagSeconds ?? null,
      watcherBehindBlocks: chain?.watcherBehindBlocks ?? null,
      chainUnreachable: figures.chainUnreachable,
    },
    reconcile: reconcile ? { ok: reconcile.ok, ranAt: reconcile.ranAt.toISOString(), difference: formatMinor(reconcile.difference) } : null,
    payoutsPaused: figures.payoutPause !== null,
    alerts: alerts.firing,
  };
}
