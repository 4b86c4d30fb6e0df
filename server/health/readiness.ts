/**
 * Readiness (docs/API.md, "Health"; docs/operations.md, "Health and stopping"): whether this instance should be sent
 * requests now. Each probe asks the database once (reachable, and every migration of this build applied), reads the
 * chain's head (shared by probes within a second, so a balancer's checks cost the provider little) and looks at when
 * the payer's and the top-up watcher's rounds last succeeded. Every check has 2 s; a failure says why in a few words
 * (never a URL or a driver's message: the answer is public). From beginStop() on, the `stopping` check fails at once,
 * and nothing else is checked.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { readinessCheckNames, type Readiness, type ReadinessCheckName } from '../../api-schema/health';
import type { Chain } from '../chain/chain';
import type { LoopHealth } from '../chain/pollLoop';
import type { Clock } from '../clock';
import { bigintText, migrationsFolder, queryRows, type Db } from '../db/client';
import { TimedOut, withinTime } from '../withinTime';

/** How long one check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 2_000;
/** The checks READY_MAX_LAG_MS=0 reports without failing readiness. */
const CHAIN_CHECKS = new Set<ReadinessCheckName>(['chainHead', 'payer', 'topUpWatcher']);
/** What readiness answers from beginStop() on. */
const STOPPING: Readiness = { ready: false, failing: ['stopping'], checks: { stopping: { ok: false, problem: 'this instance is stopping' } } };
/** Probes within this long share one read of the chain's head. */
const HEAD_SHARED_MS = 1_000;

export interface ReadinessOptions {
  db: Db;
  now: Clock;
  /** The chain, when the server has one; read at each probe (the app sets it as it starts, server/app.ts). */
  chain?: Chain | undefined;
  /** The rounds that must keep up: the payer's (when it runs on its timer) and the top-up watcher's. */
  rounds?:
    | {
        payer?: (() => LoopHealth) | undefined;
        topUpWatcher?: (() => LoopHealth) | undefined;
        /** Why payouts are halted as the payer's last round read its journal (server/chain/payer/journal.ts), or null. */
        payoutsHalted?: (() => string | null) | undefined;
      }
    | undefined;
  /**
   * READY_MAX_LAG_MS: the chain's head may be this old, and the rounds' last success; 0 reports the chain's checks
   * without failing readiness on them (all instances share the chain: a provider's outage takes every one out).
   */
  maxLagMs: number;
  /** The migrations this build has (their journal's `when`); default read from server/db/migrations. */
  migrationStamps?: readonly number[] | undefined;
}

export interface ReadinessProbe {
  check(): Promise<Readiness>;
  /** From now on readiness fails with `stopping` (SIGTERM: the balancer takes the instance out first). */
  beginStop(): void;
  readonly stopping: boolean;
}

const journalSchema = z.object({ entries: z.array(z.object({ when: z.number() })) });

/**
 * The `when` of each migration this build has (drizzle's migrator applies those later than the newest it recorded).
 *
 * @returns the stamps, oldest first
 * @example
 * buildMigrationStamps().length; // 26
 */
export function buildMigrationStamps(): number[] {
  const journal = journalSchema.parse(JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, 'utf8')));
  return journal.entries.map((entry) => entry.when);
}

/** `work`, or a TimedOut after CHECK_TIMEOUT_MS. */
const withinCheckTime = <T>(work: Promise<T>): Promise<T> => withinTime(work, CHECK_TIMEOUT_MS);

const problemOf = (error: unknown, what: string) => (error instanceof TimedOut ? `${what} did not answer within ${CHECK_TIMEOUT_MS / 1000} s` : `${what} cannot be reached`);

/**
 * Creates the probe of one instance.
 *
 * @param options - database, clock, chain, rounds, the lag allowed
 * @returns check() and beginStop()
 * @example
 * const probe = createReadiness({ db, now, chain, rounds: { topUpWatcher: watcher.health }, maxLagMs: 60_000 });
 * (await probe.check()).ready;
 */
export function createReadiness(options: ReadinessOptions): ReadinessProbe {
  const { db, now, maxLagMs } = options;
  const stamps = options.migrationStamps ?? buildMigrationStamps();
  let stopping = false;
  let markStopped!: (answer: Readiness) => void;
  const stopped = new Promise<Readiness>((resolve) => (markStopped = resolve));
  let head: { at: number; read: Promise<{ number: bigint; timestamp: bigint }> } | undefined;

  async function database(): Promise<Pick<Readiness['checks'], 'database' | 'migrations'>> {
    const started = performance.now();
    try {
      // One round trip: the database answers, and says the newest migration it applied.
      const [row] = await withinCheckTime(queryRows(db, sql`SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations`, z.object({ newest: bigintText.nullable() })));
      const newest = row?.newest ?? null;
      const behind = stamps.filter((when) => newest === null || BigInt(when) > newest).length;
      return {
        database: { ok: true, ms: Math.round(performance.now() - started) },
        migrations: behind === 0 ? { ok: true, behind } : { ok: false, behind, problem: `${behind} migration(s) of this build not applied` },
      };
    } catch (error) {
      return { database: { ok: false, problem: problemOf(error, 'the database') }, migrations: { ok: false, problem: 'unknown: the database cannot be read' } };
    }
  }

  const lagOk = (ms: number) => maxLagMs === 0 || ms <= maxLagMs;

  async function chainHead(): Promise<Readiness['checks']['chainHead']> {
    const chain = options.chain;
    if (!chain) return undefined;
    const at = Date.now();
    if (!head || at - head.at > HEAD_SHARED_MS) {
      const read = chain.client.getBlock({ blockTag: 'latest', includeTransactions: false }).then((block) => ({ number: block.number, timestamp: block.timestamp }));
      head = { at, read };
      // A failed read is not shared: the next probe asks again.
      read.catch(() => (head?.read === read ? (head = undefined) : undefined));
    }
    try {
      const block = await withinCheckTime(head.read);
      const ageMs = Math.max(0, now().getTime() - Number(block.timestamp) * 1000);
      const ageSeconds = Math.floor(ageMs / 1000);
      return lagOk(ageMs) ? { ok: true, block: block.number.toString(), ageSeconds } : { ok: false, block: block.number.toString(), ageSeconds, problem: `the chain's head is ${ageSeconds} s old` };
    } catch (error) {
      return { ok: false, problem: problemOf(error, 'the chain') };
    }
  }

  function round(health: (() => LoopHealth) | undefined, what: string): { ok: boolean; lastRoundSeconds: number | null; problem?: string } | undefined {
    const state = health?.();
    // Not on its timer (PAYER=off, tests that run rounds themselves, or stopped): nothing to keep up with.
    if (!state?.running || !state.startedAt) return undefined;
    const at = now().getTime();
    const lastRoundSeconds = state.lastSuccessAt ? Math.max(0, Math.floor((at - state.lastSuccessAt.getTime()) / 1000)) : null;
    // Before its first success the time since it started counts: a fresh instance is ready at once.
    const lagMs = at - (state.lastSuccessAt ?? state.startedAt).getTime();
    if (lagOk(lagMs)) return { ok: true, lastRoundSeconds };
    return { ok: false, lastRoundSeconds, problem: `${what} has not completed a round for ${Math.floor(lagMs / 1000)} s` };
  }

  /**
   * The payer's rounds, and whether payouts are halted: said (`payoutsHalted` and the reason) but not failed on, as
   * every instance shares the hot wallet: taking them all out would stop the members' other calls too.
   */
  function payerCheck(): Readiness['checks']['payer'] {
    const check = round(options.rounds?.payer, 'the payer');
    if (!check) return undefined;
    const halted = options.rounds?.payoutsHalted?.() ?? null;
    return halted ? { ...check, payoutsHalted: true, problem: check.problem ?? halted } : { ...check, payoutsHalted: false };
  }

  return {
    get stopping() {
      return stopping;
    },
    beginStop: () => {
      stopping = true;
      markStopped(STOPPING);
    },
    check: async () => {
      // A stopping instance answers at once, and so does a check under way when the stop begins (its query may wait
      // behind the load): the balancer must learn of it within the drain.
      if (stopping) return STOPPING;
      const checked = await Promise.race([Promise.all([database(), chainHead()]), stopped]);
      if (!Array.isArray(checked)) return checked;
      const [stored, chainHeadCheck] = checked;
      const checks: Readiness['checks'] = {
        stopping: { ok: true },
        ...stored,
        chainHead: chainHeadCheck,
        payer: payerCheck(),
        topUpWatcher: round(options.rounds?.topUpWatcher, 'the top-up watcher'),
      };
      const failing = readinessCheckNames.filter((name: ReadinessCheckName) => checks[name]?.ok === false && (maxLagMs > 0 || !CHAIN_CHECKS.has(name)));
      return { ready: failing.length === 0, failing, checks };
    },
  };
}
