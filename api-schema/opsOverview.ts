import * as z from 'zod/mini';
import { alertSchema } from './opsMoney';
import { balanceSchema, isoDateSchema, signedAmountSchema } from './primitives';
import { defineEndpoint } from './endpoint';

/**
 * The desk's home (docs/API.md, "Operators: the overview"): the state of things at a glance, for every role, each
 * part only for the roles that act on it (null for the others): money across the chain boundary per UTC day for 30
 * days (finance), the queues and how long their oldest waits (finance: withdrawals by stage, approvals waiting for a
 * second operator, held top-ups; support: orders to ship), the hot wallet's runway (finance), and for everyone how
 * far the watcher and the payer are behind, the alerts firing and reconcile's last verdict. Not part of the SPA.
 */

/** How many of something wait, and for how long the oldest has (0 when none). */
const waitingSchema = z.object({ count: z.number(), oldestAgeSeconds: z.number() });

/** One UTC day's money across the chain boundary: top-ups in, payouts (and returns) out, decimal strings. */
export const overviewDaySchema = z.object({ day: z.string(), in: balanceSchema, out: balanceSchema });

/** The number of days the overview's money chart covers, today included. */
export const OVERVIEW_DAYS = 30;

export const overviewSchema = z.object({
  at: isoDateSchema,
  money: z.nullable(
    z.object({
      /** OVERVIEW_DAYS days, oldest first, today last; a day without movement is there with 0. */
      days: z.array(overviewDaySchema),
      total: z.object({ in: balanceSchema, out: balanceSchema }),
    }),
  ),
  withdrawals: z.nullable(
    z.object({
      pending: waitingSchema,
      approved: waitingSchema,
      sent: waitingSchema,
      /** Above the quorum with one approval: waiting for a second finance operator. */
      approvalsWaiting: waitingSchema,
      heldTopUps: z.object({ count: z.number(), amount: balanceSchema }),
    }),
  ),
  orders: z.nullable(z.object({ toShip: waitingSchema })),
  /** From the newest reconcile: what the hot wallet holds and how many days of the last week's payouts it covers (null: none paid). */
  runway: z.nullable(z.object({ token: balanceSchema, gasWei: z.string(), tokenDays: z.nullable(z.number()), gasDays: z.nullable(z.number()) })),
  /** Seconds since this instance's payer and watcher last finished a round, blocks the watcher is behind (null: unknown here). */
  lags: z.object({ payerSeconds: z.nullable(z.number()), watcherSeconds: z.nullable(z.number()), watcherBehindBlocks: z.nullable(z.number()), chainUnreachable: z.boolean() }),
  reconcile: z.nullable(z.object({ ok: z.boolean(), ranAt: isoDateSchema, difference: signedAmountSchema })),
  payoutsPaused: z.boolean(),
  alerts: z.array(alertSchema),
});

export const opsOverview = defineEndpoint({
  method: 'GET',
  path: '/api/admin/overview',
  access: 'operator',
  summary: "The desk's home: money per day for 30 days, the queues and their ages, runway, lags, alerts and reconcile, each part for its roles (added)",
  query: undefined,
  body: undefined,
  result: overviewSchema,
});
