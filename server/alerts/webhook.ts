/**
 * An alert event as a webhook sends it: Alertmanager's webhook payload (version 4), so a receiver written for
 * Alertmanager (a chat bridge, an incident tool) reads it as is, signed as Stripe and Fireblocks sign theirs: an
 * HMAC-SHA256 of `timestamp.body` under ALERT_WEBHOOK_SECRET, the timestamp sent beside it so a receiver can refuse an
 * old or replayed call. `X-Member-Dapp-Event` names the event: a receiver that sees one twice (a retry after a lost
 * answer) keeps the first.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AlertSeverity } from './rules';

/** Alertmanager's endsAt of an alert still firing. */
const STILL_FIRING = '0001-01-01T00:00:00Z';

export interface AlertEvent {
  /** The alert's id and what happened to it: one event per firing and one per resolving. */
  alertId: bigint;
  event: 'firing' | 'resolved';
  rule: string;
  severity: AlertSeverity;
  summary: string;
  description: string;
  startedAt: Date;
  endedAt: Date | null;
}

/** The event's id, as its header and the payload's groupKey carry it. */
export const eventIdOf = (event: Pick<AlertEvent, 'alertId' | 'event'>): string => `alert-${event.alertId.toString()}-${event.event}`;

/**
 * The payload of one event (one alert per payload).
 *
 * @param event - the event
 * @param externalUrl - the desk's address (PUBLIC_URL), or '' when unknown
 * @returns Alertmanager's webhook body
 * @example
 * const body = JSON.stringify(alertmanagerPayload(event, 'https://member.example'));
 */
export function alertmanagerPayload(event: AlertEvent, externalUrl: string) {
  const labels = { alertname: event.rule, severity: event.severity, service: 'member-dapp' };
  const annotations = { summary: event.summary, description: event.description };
  return {
    version: '4',
    groupKey: eventIdOf(event),
    truncatedAlerts: 0,
    status: event.event,
    receiver: 'member-dapp',
    groupLabels: { alertname: event.rule },
    commonLabels: labels,
    commonAnnotations: annotations,
    externalURL: externalUrl,
    alerts: [
      {
        status: event.event,
        labels,
        annotations,
        startsAt: event.startedAt.toISOString(),
        endsAt: event.endedAt ? event.endedAt.toISOString() : STILL_FIRING,
        generatorURL: externalUrl ? `${externalUrl.replace(/\/$/, '')}/ops/` : '',
        fingerprint: `alert-${event.alertId.toString()}`,
      },
    ],
  };
}

/**
 * The signature headers of a body sent at `at`.
 *
 * @param secret - ALERT_WEBHOOK_SECRET
 * @param body - the exact bytes sent
 * @param at - when it is sent
 * @returns the headers
 * @example
 * const headers = signatureHeaders(secret, body, new Date());
 */
export function signatureHeaders(secret: string, body: string, at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000).toString();
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { 'x-member-dapp-timestamp': timestamp, 'x-member-dapp-signature': `v1=${signature}` };
}

/**
 * A receiver's check of a call (what docs/deploy's receivers do; the tests' receiver uses it).
 *
 * @param secret - the shared secret
 * @param body - the raw body received
 * @param headers - the call's timestamp and signature headers
 * @param now - the receiver's clock
 * @param toleranceSeconds - how old a call may be
 * @returns true when the signature is the secret's and the call is recent
 * @example
 * verifySignature(secret, rawBody, req.headers, new Date(), 300);
 */
export function verifySignature(secret: string, body: string, headers: Record<string, string | string[] | undefined>, now: Date, toleranceSeconds = 300): boolean {
  const timestamp = headers['x-member-dapp-timestamp'];
  const signature = headers['x-member-dapp-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
