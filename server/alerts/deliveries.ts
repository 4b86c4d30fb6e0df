/**
 * Sends the alerts' events to their webhooks (alert_deliveries): every instance runs the loop, and a sender claims
 * a due row for CLAIM_MS before it posts, so no two send one event at once. A 2xx answer marks it delivered; anything
 * else (an error, a timeout, another status) schedules the next attempt with backoff, doubling from 5 s up to an
 * hour, for as long as it takes. A sender that dies after posting and before marking leaves the row claimed: it goes
 * out again once the claim lapses, with the same `X-Member-Dapp-Event`, which the receiver keeps once.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { bigintText, queryRows, type Db } from '../db/client';
import { pollLoop, type PollLoop } from '../chain/pollLoop';
import { signatureHeaders } from './webhook';

/** How long a sender holds a row it is posting. */
const CLAIM_MS = 60_000;
/** How long one post may take. */
const POST_TIMEOUT_MS = 10_000;
/** Rows one round claims at most. */
const ROUND_ROWS = 20;
const FIRST_RETRY_MS = 5_000;
const LONGEST_RETRY_MS = 3_600_000;

/** How often each instance looks for due deliveries. */
export const ALERT_DELIVERY_POLL_MS = 2_000;

/**
 * The pause after `attempts` failed attempts.
 *
 * @param attempts - failed attempts so far (1 after the first)
 * @returns milliseconds
 * @example
 * retryAfterMs(1); // 5000
 */
export function retryAfterMs(attempts: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

const claimedRow = z.object({ id: bigintText, url: z.string(), payload: z.unknown(), groupKey: z.string(), attempts: z.number() });

export interface DeliveryOptions {
  db: Db;
  now: () => Date;
  /** ALERT_WEBHOOK_SECRET. */
  secret: string;
  /** The HTTP client (the global fetch; a test may pass its own). */
  fetch?: typeof fetch | undefined;
}

/**
 * One round: claims the due rows and posts each.
 *
 * @param options - database, clock, secret
 * @returns how many were delivered and how many failed this round
 * @example
 * await deliverDueAlerts({ db, now: () => new Date(), secret });
 */
export async function deliverDueAlerts(options: DeliveryOptions): Promise<{ delivered: number; failed: number }> {
  const now = options.now();
  const claimed = await queryRows(
    options.db,
    sql`UPDATE alert_deliveries SET claimed_until = ${new Date(now.getTime() + CLAIM_MS).toISOString()}::timestamptz
        WHERE id IN (
          SELECT id FROM alert_deliveries WHERE delivered_at IS NULL AND next_attempt_at <= ${now.toISOString()}::timestamptz
            AND (claimed_until IS NULL OR claimed_until < ${now.toISOString()}::timestamptz)
          ORDER BY id LIMIT ${ROUND_ROWS}::int FOR UPDATE SKIP LOCKED)
        RETURNING id, url, payload, payload->>'groupKey' AS "groupKey", attempts`,
    claimedRow,
  );
  const post = options.fetch ?? fetch;
  let delivered = 0;
  let failed = 0;
  for (const row of claimed) {
    const body = JSON.stringify(row.payload);
    let problem: string | null;
    try {
      const answer = await post(row.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-member-dapp-event': row.groupKey, ...signatureHeaders(options.secret, body, options.now()) },
        body,
        signal: AbortSignal.timeout(POST_TIMEOUT_MS),
        redirect: 'manual',
      });
      problem = answer.ok ? null : `HTTP ${answer.status}`;
    } catch (error) {
      problem = error instanceof Error ? error.message.slice(0, 200) : 'request failed';
    }
    if (problem === null) {
      delivered += 1;
      await options.db.execute(sql`UPDATE alert_deliveries SET delivered_at = ${options.now().toISOString()}::timestamptz, attempts = attempts + 1, claimed_until = NULL, last_error = NULL WHERE id = ${row.id.toString()}::bigint`);
    } else {
      failed += 1;
      const next = new Date(options.now().getTime() + retryAfterMs(row.attempts + 1));
      await options.db.execute(
        sql`UPDATE alert_deliveries SET attempts = attempts + 1, next_attempt_at = ${next.toISOString()}::timestamptz, claimed_until = NULL, last_error = ${problem}
            WHERE id = ${row.id.toString()}::bigint`,
      );
    }
  }
  return { delivered, failed };
}

/**
 * The delivery loop (stopped until start()).
 *
 * @param options - database, clock, secret
 * @param onError - where a failed round is reported
 * @returns the loop
 * @example
 * alertDeliveryLoop({ db, now, secret }, (error) => log.warn(error)).start();
 */
export function alertDeliveryLoop(options: DeliveryOptions, onError: (error: unknown) => void): PollLoop {
  return pollLoop(() => deliverDueAlerts(options), ALERT_DELIVERY_POLL_MS, { onError, now: options.now });
}
