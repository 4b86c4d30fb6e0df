/**
 * The business gauges (docs/operations.md, "Metrics and alerts"): reconcile's verdict and difference, lost, stuck and
 * unknown payments, withdrawals by stage with the oldest's age, approvals waiting, held top-ups, the hot wallet's token
 * and gas with their runway, the chain's head age and the watcher's and payer's lag. One read of the figures
 * (server/metrics/businessFigures.ts) serves every gauge of a scrape.
 */
import { Gauge } from 'prom-client';
import { minorPerUnit } from '../../api-schema/amount';
import { OPEN_STAGES, readBusinessFigures, type BusinessFigures, type BusinessSources } from './businessFigures';
import { METRIC_PREFIX, type AppMetrics } from './registry';

/**
 * Credit as a gauge's number. Gauges are float64 by Prometheus' format; they are read by people and alert rules, never
 * fed back into money, which stays bigint minor units everywhere else.
 */
const credits = (minor: bigint): number => Number(minor) / Number(minorPerUnit);

/** Empties an unlabelled gauge (prom-client keeps its samples in `hashMap`; tests/server/metricsBusiness.test.ts holds it to this). */
function withoutSamples(gauge: Gauge): void {
  (gauge as unknown as { hashMap: Record<string, unknown> }).hashMap = {};
}

/**
 * Registers the gauges on the app's registry.
 *
 * @param metrics - the app's metrics
 * @param sources - where the figures come from
 * @returns the read of the figures (shared while one is under way), for the alerts that judge the same figures
 * @example
 * const figures = registerBusinessGauges(metrics, { db, now, approvalQuorumAbove });
 */
export function registerBusinessGauges(metrics: AppMetrics, sources: BusinessSources): () => Promise<BusinessFigures> {
  // The gauges of one scrape ask together (prom-client collects them at once): they share the read under way.
  let shared: Promise<BusinessFigures> | undefined;
  const figures = (): Promise<BusinessFigures> => {
    if (!shared) {
      const read = readBusinessFigures(sources);
      shared = read;
      void read.finally(() => (shared === read ? (shared = undefined) : undefined)).catch(() => undefined);
    }
    return shared;
  };
  const registers = [metrics.registry];
  /** A gauge set from the figures at each scrape; `value` undefined leaves it without a sample. */
  const gauge = (name: string, help: string, value: (f: BusinessFigures) => number | undefined) =>
    new Gauge({
      name: `${METRIC_PREFIX}${name}`,
      help,
      registers,
      async collect() {
        const v = value(await figures());
        this.reset();
        if (v !== undefined) this.set(v);
        // An unknown figure has no sample (a scraper sees it absent), not the 0 prom-client's reset() gives an
        // unlabelled gauge: reconcile_ok 0 before the first run would read as books that are off.
        else withoutSamples(this);
      },
    });
  const byLabel = <L extends string>(name: string, help: string, label: L, values: (f: BusinessFigures) => [string, number][]) =>
    new Gauge<L>({
      name: `${METRIC_PREFIX}${name}`,
      help,
      labelNames: [label],
      registers,
      async collect() {
        const list = values(await figures());
        this.reset();
        for (const [key, v] of list) this.set({ [label]: key } as Record<L, string>, v);
      },
    });

  gauge('reconcile_ok', '1 when the newest scheduled reconcile found the books and the chain agreeing, else 0', (f) => (f.reconcile ? (f.reconcile.ok ? 1 : 0) : undefined));
  gauge('reconcile_difference_credits', "Reconcile's backing minus owed, in credit (below 0: tokens short)", (f) => (f.reconcile ? credits(f.reconcile.difference) : undefined));
  gauge('reconcile_last_run_timestamp_seconds', 'When the newest scheduled reconcile ran', (f) => (f.reconcile ? f.reconcile.ranAt.getTime() / 1000 : undefined));
  gauge('payments_lost', "Paid withdrawals whose payment the chain lost or reverted, or paid after a refund (reconcile's list)", (f) => f.reconcile?.result.lostPayments.length);
  gauge('payments_stuck', 'Sent payments not mined for longer than the payer waits (reconcile)', (f) => f.reconcile?.result.stuckPayments.length);
  gauge('payments_unknown', 'Payments on chain the database never knew, not settled yet (reconcile)', (f) => f.reconcile?.result.unknownPayments.length);
  byLabel('withdrawals', 'Withdrawals waiting, by stage (held: for an operator; approved: for the payer; sent: for the chain)', 'stage', (f) =>
    OPEN_STAGES.map((stage) => [stage, f.withdrawals[stage].count]),
  );
  byLabel('withdrawal_oldest_age_seconds', 'Age of the oldest withdrawal at each stage (0 when none waits)', 'stage', (f) =>
    OPEN_STAGES.map((stage) => [stage, f.withdrawals[stage].oldestAgeSeconds]),
  );
  byLabel('payer_waiting', '1 when approved withdrawals wait for the hot wallet to hold this resource (newest reconcile)', 'resource', (f) => {
    const waiting = f.reconcile?.result.payer.waiting;
    return f.reconcile?.result.payer.address ? [['token', waiting === 'token' ? 1 : 0], ['gas', waiting === 'gas' ? 1 : 0]] : [];
  });
  gauge('payouts_paused', '1 while payouts are paused on doubt until two operators resume them, else 0', (f) => (f.payoutPause ? 1 : 0));
  gauge('approvals_waiting', 'Withdrawals above the quorum approved once, waiting for a second operator', (f) => f.approvalsWaiting.count);
  gauge('approval_oldest_wait_seconds', 'How long the oldest of them has waited since its first approval', (f) => f.approvalsWaiting.oldestAgeSeconds);
  gauge('held_top_ups', 'Top-ups held for a sender who is no member, neither released nor returned', (f) => f.heldTopUps.count);
  gauge('held_top_ups_credits', 'What the held top-ups come to, in credit', (f) => credits(f.heldTopUps.amount));
  gauge('hot_wallet_token_credits', "The hot wallet's token, in credit (newest reconcile)", (f) => (f.hotWallet ? credits(f.hotWallet.token) : undefined));
  gauge('hot_wallet_gas_wei', "The hot wallet's coin for gas, in wei (newest reconcile)", (f) => (f.hotWallet ? Number(f.hotWallet.gasWei) : undefined));
  byLabel('hot_wallet_runway_seconds', "How long the hot wallet's token and gas last at the last 7 days' payments (+Inf: none paid)", 'resource', (f) =>
    f.hotWallet ? [['token', f.hotWallet.tokenRunwaySeconds], ['gas', f.hotWallet.gasRunwaySeconds]] : [],
  );
  gauge('chain_reachable', 'With a chain: 1 when its node answered this scrape within 2 s, else 0', (f) => (f.chain ? 1 : f.chainUnreachable ? 0 : undefined));
  gauge('chain_head_age_seconds', "Age of the chain's newest block", (f) => f.chain?.headAgeSeconds);
  gauge('chain_head_block', "The chain's newest block number", (f) => (f.chain ? Number(f.chain.headBlock) : undefined));
  gauge('watcher_behind_blocks', "Blocks between the chain's head and the top-up watcher's cursor", (f) => f.chain?.watcherBehindBlocks);
  gauge('watcher_lag_seconds', "Seconds since this instance's top-up watcher completed a round", (f) => f.watcherLagSeconds);
  gauge('payer_lag_seconds', "Seconds since this instance's payer completed a round", (f) => f.payerLagSeconds);
  return figures;
}
