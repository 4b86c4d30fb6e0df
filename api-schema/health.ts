/**
 * Health (docs/API.md, "Health"): what a load balancer or an orchestrator asks each server instance. Liveness says the
 * process can answer; readiness says whether it should be sent requests now (its database, its migrations, its
 * chain and the payer's and top-up watcher's rounds), and answers 503 (code 5030) with the failing checks when not,
 * and from the moment it begins to stop.
 */
import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint';
import { intAtLeast } from './primitives';

/** The checks readiness makes; `stopping` fails from the moment the instance begins to stop (SIGTERM). */
export const readinessCheckNames = ['stopping', 'database', 'migrations', 'chainHead', 'payer', 'topUpWatcher'] as const;
export type ReadinessCheckName = (typeof readinessCheckNames)[number];

/** One check: whether it passed, and why not in a few words (never a URL or a driver's message). */
const check = <T extends z.core.$ZodLooseShape>(shape: T) => z.object({ ok: z.boolean(), problem: z.optional(z.string()), ...shape });

/** Seconds since something, null when it has not happened yet. */
const secondsSince = z.nullable(intAtLeast(0));

export const readinessSchema = z.object({
  ready: z.boolean(),
  /** The names of the checks that failed, in the order of `readinessCheckNames`. */
  failing: z.array(z.enum(readinessCheckNames)),
  checks: z.object({
    stopping: check({}),
    /** A query's round trip in milliseconds (within the check's 2 s). Absent while stopping: nothing else is checked then. */
    database: z.optional(check({ ms: z.optional(intAtLeast(0)) })),
    /** Migrations this build has that the database has not applied. Absent while stopping. */
    migrations: z.optional(check({ behind: z.optional(intAtLeast(0)) })),
    /** With a chain: the head's number and its age by its timestamp. */
    chainHead: z.optional(check({ block: z.optional(z.string()), ageSeconds: z.optional(intAtLeast(0)) })),
    /** With a payer on its timer: seconds since its last successful round. */
    /** `payoutsHalted`: the chain shows what the database does not know; said here, and in `problem`, without failing readiness. */
    payer: z.optional(check({ lastRoundSeconds: z.optional(secondsSince), payoutsHalted: z.optional(z.boolean()) })),
    /** With a chain: seconds since the top-up watcher's last settled round. */
    topUpWatcher: z.optional(check({ lastRoundSeconds: z.optional(secondsSince) })),
  }),
});
export type Readiness = z.infer<typeof readinessSchema>;

export const healthLive = defineEndpoint({
  method: 'GET',
  path: '/api/health/live',
  access: 'public',
  summary: 'Liveness (added): the process answers; no database or chain call',
  query: undefined,
  body: undefined,
  result: z.object({ live: z.literal(true), uptimeSeconds: intAtLeast(0) }),
});

export const healthReady = defineEndpoint({
  method: 'GET',
  path: '/api/health/ready',
  access: 'public',
  summary: 'Readiness (added): 200 when this instance should get requests; 503 (code 5030) with the failing checks when not, and while it stops',
  query: undefined,
  body: undefined,
  result: readinessSchema,
});
