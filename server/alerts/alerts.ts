/**
 * Alerts fire and resolve (docs/operations.md, "Metrics and alerts"): after each scheduled reconcile, its lease holder
 * judges the figures with every rule (server/alerts/rules.ts). A rule that starts firing opens an alert, one that stops
 * ends it; each change writes its audit row and one delivery per webhook (alert_deliveries) in one transaction, so an
 * event is recorded, audited and queued together or not at all. The deliveries go out on their own loop
 * (server/alerts/deliveries.ts).
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { alertDeliveries, alerts } from '../db/schema';
import type { BusinessFigures } from '../metrics/businessFigures';
import { recordAudit } from '../ops/audit';
import { ALERT_RULES, type AlertRule, type AlertSeverity, type AlertThresholds } from './rules';
import { alertmanagerPayload, type AlertEvent } from './webhook';

/** The one lock of the judging: two instances that both think they hold the lease never open one alert twice. */
const ALERTS_LOCK = 4_361_000_020;

export interface AlertsOptions {
  thresholds: AlertThresholds;
  /** ALERT_WEBHOOK_URLS: where each event goes. */
  webhookUrls: readonly string[];
  /** The desk's address for the payloads (PUBLIC_URL's first), or ''. */
  externalUrl: string;
  rules?: readonly AlertRule[] | undefined;
}

export interface AlertView {
  id: string;
  rule: string;
  severity: AlertSeverity;
  summary: string;
  description: string;
  startedAt: string;
  endedAt: string | null;
}

const viewOf = (row: typeof alerts.$inferSelect): AlertView => ({
  id: row.id.toString(),
  rule: row.rule,
  severity: row.severity as AlertSeverity,
  summary: row.summary,
  description: row.description,
  startedAt: row.startedAt.toISOString(),
  endedAt: row.endedAt ? row.endedAt.toISOString() : null,
});

/** Records one event's audit row and deliveries, in the caller's transaction. */
async function recordEvent(tx: Db, event: AlertEvent, options: AlertsOptions, now: Date): Promise<void> {
  await recordAudit(tx, {
    at: now,
    actorAddress: null,
    actorRoles: [],
    via: 'system',
    action: event.event === 'firing' ? 'alertFiring' : 'alertResolved',
    target: event.rule,
    before: null,
    after: { alertId: event.alertId, severity: event.severity, description: event.description },
    requestId: null,
    clientAddress: null,
  });
  const payload = alertmanagerPayload(event, options.externalUrl);
  for (const url of options.webhookUrls) {
    await tx.insert(alertDeliveries).values({ alertId: event.alertId, event: event.event, url, payload, nextAttemptAt: now }).onConflictDoNothing();
  }
}

/**
 * Judges the figures: opens the alerts of rules that fire and are not open, ends those of rules that no longer fire.
 *
 * @param db - database handle (not a transaction)
 * @param figures - the figures now
 * @param options - thresholds, webhooks, the desk's address
 * @param now - the server's clock
 * @returns the events this judging made
 * @example
 * const events = await judgeAlerts(db, await app.businessFigures(), options, new Date());
 */
export async function judgeAlerts(db: Db, figures: BusinessFigures, options: AlertsOptions, now: Date): Promise<AlertEvent[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ALERTS_LOCK})`);
    const open = new Map((await tx.select().from(alerts).where(isNull(alerts.endedAt))).map((row) => [row.rule, row]));
    const events: AlertEvent[] = [];
    for (const rule of options.rules ?? ALERT_RULES) {
      const seen = rule.check(figures, options.thresholds);
      const current = open.get(rule.name);
      if (seen !== null && !current) {
        const [row] = await tx.insert(alerts).values({ rule: rule.name, severity: rule.severity, summary: rule.summary, description: seen, startedAt: now }).returning();
        if (!row) throw new Error('alert not stored');
        events.push({ alertId: row.id, event: 'firing', rule: rule.name, severity: rule.severity, summary: rule.summary, description: seen, startedAt: now, endedAt: null });
      } else if (seen === null && current) {
        await tx.update(alerts).set({ endedAt: now }).where(and(eq(alerts.id, current.id), isNull(alerts.endedAt)));
        events.push({
          alertId: current.id,
          event: 'resolved',
          rule: rule.name,
          severity: rule.severity,
          summary: rule.summary,
          description: current.description,
          startedAt: current.startedAt,
          endedAt: now,
        });
      }
    }
    for (const event of events) await recordEvent(tx, event, options, now);
    return events;
  });
}

/**
 * The alerts firing now and the latest ended ones, for the desk.
 *
 * @param db - database handle
 * @param recent - how many ended ones
 * @returns firing (oldest first) and ended (newest first)
 * @example
 * const { firing } = await listAlerts(db, 20);
 */
export async function listAlerts(db: Db, recent: number): Promise<{ firing: AlertView[]; resolved: AlertView[] }> {
  const [firing, resolved] = await Promise.all([
    db.select().from(alerts).where(isNull(alerts.endedAt)).orderBy(alerts.startedAt, alerts.id),
    db.select().from(alerts).where(sql`${alerts.endedAt} IS NOT NULL`).orderBy(desc(alerts.endedAt), desc(alerts.id)).limit(recent),
  ]);
  return { firing: firing.map(viewOf), resolved: resolved.map(viewOf) };
}
