/**
 * The rate limits' counters in the database (docs/operations.md, "Rate limits"): @fastify/rate-limit's custom store
 * over the rate_limits table, so instances on one PostgreSQL database count every client against one limit instead of
 * one each. A hit is one statement (an upsert that restarts a window past its end and answers the count and the time
 * left); every SWEEP_EVERY hits an instance also deletes the windows that have ended, on their index.
 *
 * The windows are fixed, as the in-memory store's: the first hit opens one for `timeWindow` ms, the hits in it count,
 * the first hit after it opens the next. The time is the app's clock (tests move it); instances' clocks agree to
 * NTP's milliseconds, which is all a window of a minute needs.
 */
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Clock } from '../clock';
import { bigintText, queryRows, type Db } from '../db/client';

/** Every this many hits an instance makes, it deletes the ended windows first. */
export const SWEEP_EVERY = 256;

/** A window's count after a hit, and the milliseconds until it ends. */
export interface RateLimitHit {
  hits: number;
  ttlMs: number;
}

const hitRow = z.object({ hits: z.number(), ttlMs: bigintText });

/**
 * Counts one hit of `key` on `bucket`: a window that has ended (or none) starts again at this hit.
 *
 * @param db - database handle
 * @param hit - the bucket (a route), the key (a client), the window's length and the time
 * @returns the count in the window, this hit included, and the milliseconds the window has left
 * @example
 * const { hits, ttlMs } = await hitRateLimit(db, { bucket: 'GET /api/member/loginNonce', key: '203.0.113.1', windowMs: 60_000, now: new Date() });
 */
export async function hitRateLimit(db: Db, hit: { bucket: string; key: string; windowMs: number; now: Date }): Promise<RateLimitHit> {
  const at = hit.now.toISOString();
  const resetsAt = new Date(hit.now.getTime() + hit.windowMs).toISOString();
  // ON CONFLICT takes the row's lock: hits at the same moment on any instance are counted one after the other.
  const [row] = await queryRows(
    db,
    sql`INSERT INTO rate_limits AS r (bucket, key, hits, resets_at) VALUES (${hit.bucket}, ${hit.key}, 1, ${resetsAt}::timestamptz)
        ON CONFLICT (bucket, key) DO UPDATE SET
          hits = CASE WHEN r.resets_at <= ${at}::timestamptz THEN 1 ELSE r.hits + 1 END,
          resets_at = CASE WHEN r.resets_at <= ${at}::timestamptz THEN excluded.resets_at ELSE r.resets_at END
        RETURNING hits, ceil(extract(epoch FROM resets_at - ${at}::timestamptz) * 1000)::bigint AS "ttlMs"`,
    hitRow,
  );
  if (!row) throw new Error('the rate_limits upsert returned no row');
  return { hits: row.hits, ttlMs: Number(row.ttlMs) };
}

/**
 * Deletes the windows that ended before `now` (they count for nothing: the next hit starts its window again).
 *
 * @param db - database handle
 * @param now - the current instant
 * @returns how many rows were deleted
 * @example
 * await sweepRateLimits(db, new Date());
 */
export async function sweepRateLimits(db: Db, now: Date): Promise<number> {
  const rows = await queryRows(db, sql`DELETE FROM rate_limits WHERE resets_at < ${now.toISOString()}::timestamptz RETURNING 1 AS one`, z.object({ one: z.number() }));
  return rows.length;
}

// What @fastify/rate-limit hands child(): the route's merged options, the route itself under routeInfo (its own
// RedisStore reads the same; the published types say otherwise).
const childOptions = z.object({
  routeInfo: z.object({ method: z.union([z.string(), z.array(z.string())]), url: z.string() }),
  continueExceeding: z.boolean().optional(),
  exponentialBackoff: z.boolean().optional(),
});

/**
 * The store class @fastify/rate-limit's `store` option takes: one bucket per limited route, counted in rate_limits.
 * It keeps fixed windows only; a route asking for continueExceeding or exponentialBackoff is refused at start.
 *
 * @param db - database handle (PostgreSQL: the instances' shared one)
 * @param now - the clock the windows are measured by
 * @returns the store's constructor
 * @example
 * await app.register(rateLimit, { global: false, store: databaseRateLimitStore(db, systemClock) });
 */
export function databaseRateLimitStore(db: Db, now: Clock): FastifyRateLimitStoreCtor {
  let hitsSinceSweep = 0;

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    readonly #bucket: string;

    constructor(_options: FastifyRateLimitOptions, bucket = '') {
      this.#bucket = bucket;
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      this.#hit(key, timeWindow).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    async #hit(key: string, windowMs: number): Promise<RateLimitHit> {
      const at = now();
      if (++hitsSinceSweep >= SWEEP_EVERY) {
        hitsSinceSweep = 0;
        await sweepRateLimits(db, at);
      }
      return hitRateLimit(db, { bucket: this.#bucket, key, windowMs, now: at });
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      const options = childOptions.parse(routeOptions);
      if (options.continueExceeding || options.exponentialBackoff) {
        throw new Error('the database rate-limit store keeps fixed windows: no continueExceeding or exponentialBackoff');
      }
      const { method, url } = options.routeInfo;
      return new DatabaseRateLimitStore({}, `${[method].flat().join(',')} ${url}`);
    }
  }

  return DatabaseRateLimitStore;
}
