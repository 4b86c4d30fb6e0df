/**
 * The alert rules (docs/operations.md, "Metrics and alerts"), in code, over the same figures the business gauges show
 * (server/metrics/businessFigures.ts), with their thresholds in settings. docs/deploy/prometheus/alerts.yml holds
 * the same rules over the metrics, for a Prometheus of the deployer's. A rule answers what it sees when it fires
 * (a short sentence with the figure), or null.
 */
import { formatMinor } from '../../api-schema/amount';
import type { BusinessFigures } from '../metrics/businessFigures';

export interface AlertThresholds {
  /** ALERT_RUNWAY_DAYS: the hot wallet's token or gas lasting less than this many days at the last week's pace fires. */
  runwayDays: number;
  /** ALERT_APPROVAL_WAIT_SECONDS: a withdrawal waiting this long for its second approver fires. */
  approvalWaitSeconds: number;
  /** ALERT_WATCHER_BEHIND_BLOCKS: the top-up watcher's cursor this many blocks behind the head fires. */
  watcherBehindBlocks: number;
  /** ALERT_CHAIN_STALE_SECONDS: the chain's newest block this old fires (as does a node that does not answer). */
  chainStaleSeconds: number;
}

/** The thresholds unless set. */
export const DEFAULT_ALERT_THRESHOLDS: AlertThresholds = { runwayDays: 3, approvalWaitSeconds: 4 * 3600, watcherBehindBlocks: 100, chainStaleSeconds: 300 };

export type AlertSeverity = 'critical' | 'warning';

export interface AlertRule {
  /** Alertmanager's `alertname`: stable, as receivers route on it. */
  name: string;
  severity: AlertSeverity;
  summary: string;
  /** What the rule sees when it fires, or null. */
  check(figures: BusinessFigures, thresholds: AlertThresholds): string | null;
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
/** A rule that fires while a list reconcile keeps is not empty: how many, or null. */
const whileAny = (count: number, one: string) => (count > 0 ? plural(count, one) : null);
const hours = (seconds: number) => `${(seconds / 3600).toFixed(1)} h`;

/** Every rule, in the order the desk lists them. */
export const ALERT_RULES: readonly AlertRule[] = [
  {
    name: 'ReconcileNotOk',
    severity: 'critical',
    summary: 'Reconcile says the books and the chain disagree: payouts pause until two operators resume them',
    check: ({ reconcile }) => {
      if (!reconcile || reconcile.ok) return null;
      const sign = reconcile.difference < 0n ? '-' : '';
      const abs = reconcile.difference < 0n ? -reconcile.difference : reconcile.difference;
      return `reconcile at ${reconcile.ranAt.toISOString()}: difference ${sign}${formatMinor(abs)} credit`;
    },
  },
  {
    name: 'PaymentLost',
    severity: 'critical',
    summary: 'A paid withdrawal was lost by the chain, mined as reverted, or paid after its refund',
    check: ({ reconcile }) => whileAny(reconcile?.result.lostPayments.length ?? 0, 'lost payment'),
  },
  {
    name: 'PaymentUnknown',
    severity: 'critical',
    summary: 'The chain shows payments of the hot wallet the database never knew: payouts are halted',
    check: ({ reconcile }) => whileAny(reconcile?.result.unknownPayments.length ?? 0, 'unknown payment'),
  },
  {
    name: 'PayoutsPaused',
    severity: 'critical',
    summary: 'Payouts are paused on doubt: no new payment is signed until two finance operators resume them',
    check: ({ payoutPause }) => (payoutPause ? `paused since ${payoutPause.pausedAt.toISOString()}: ${payoutPause.causes.map((doubt) => doubt.cause).join(', ')}` : null),
  },
  {
    name: 'PaymentStuck',
    severity: 'warning',
    summary: 'A sent payment has not been mined for longer than the payer waits',
    check: ({ reconcile }) => {
      const stuck = reconcile?.result.stuckPayments ?? [];
      if (stuck.length === 0) return null;
      const oldest = Math.max(...stuck.map((payment) => payment.ageSeconds));
      return `${plural(stuck.length, 'stuck payment')}, the oldest ${hours(oldest)}`;
    },
  },
  {
    name: 'PayerWaiting',
    severity: 'critical',
    summary: 'Approved withdrawals wait: the hot wallet lacks token or gas',
    check: ({ reconcile }) => {
      const waiting = reconcile?.result.payer.waiting;
      return waiting ? `the hot wallet waits for ${waiting === 'gas' ? 'gas money' : 'token'}` : null;
    },
  },
  {
    name: 'HotWalletRunwayLow',
    severity: 'warning',
    summary: "The hot wallet's token or gas lasts less than the runway threshold at the last week's pace",
    check: ({ hotWallet }, { runwayDays }) => {
      if (!hotWallet) return null;
      const low = (['token', 'gas'] as const).filter((resource) => (resource === 'token' ? hotWallet.tokenRunwaySeconds : hotWallet.gasRunwaySeconds) < runwayDays * 86_400);
      if (low.length === 0) return null;
      const days = (seconds: number) => (seconds / 86_400).toFixed(1);
      return low.map((resource) => `${resource} lasts ${days(resource === 'token' ? hotWallet.tokenRunwaySeconds : hotWallet.gasRunwaySeconds)} days`).join('; ');
    },
  },
  {
    name: 'ChainStale',
    severity: 'critical',
    summary: "The chain's node does not answer, or its newest block is old: top-ups and payouts wait",
    check: ({ chain, chainUnreachable }, { chainStaleSeconds }) => {
      if (chainUnreachable) return 'the node did not answer';
      return chain && chain.headAgeSeconds > chainStaleSeconds ? `the newest block is ${Math.floor(chain.headAgeSeconds)} s old` : null;
    },
  },
  {
    name: 'WatcherBehind',
    severity: 'warning',
    summary: "The top-up watcher is far behind the chain's head: members' top-ups are late",
    check: ({ chain }, { watcherBehindBlocks }) => {
      const behind = chain?.watcherBehindBlocks;
      return behind !== undefined && behind > watcherBehindBlocks ? `${behind} blocks behind the head` : null;
    },
  },
  {
    name: 'ApprovalWaiting',
    severity: 'warning',
    summary: 'A withdrawal has waited long for its second approver',
    check: ({ approvalsWaiting }, { approvalWaitSeconds }) =>
      approvalsWaiting.count > 0 && approvalsWaiting.oldestAgeSeconds >= approvalWaitSeconds
        ? `${plural(approvalsWaiting.count, 'withdrawal')} waiting, the oldest for ${hours(approvalsWaiting.oldestAgeSeconds)}`
        : null,
  },
];
