/**
 * The ledger engine (docs/decisions/0014-ledger-engine.md): one way for every money flow to move money. A flow
 * states its request as data (its at-most-once key and body, its linked legs, its limits, its business row, its
 * result) and the engine does the rest alike for all: batching (group commit), lock order, the at-most-once claim
 * and stored outcome, the balance and limit rules, one answer per request. The SQL side is server/ledger/engine.sql,
 * one file installed whole by its migration (npm run engine); this module turns requests into its items and answers
 * into outcomes.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import { getStoredAppConfig, type AppConfig, type StoredAppConfig } from '../config/appConfig';
import { rowsOf, type Db } from '../db/client';
import type { Asset } from './accounts';
import { createBatcher, type BatcherOptions } from './batcher';
import { hashBody, sweepOutcomes, type StoredOutcome } from './idempotency';
import { recordIdSequence, type RecordTable } from './recordTables';
import { namedStatement } from './statements';

/**
 * The record types a member sees, plus three that only move between system accounts: `fee` (a withdrawal's fee, and
 * its return when the withdrawal fails), `payout` (a done withdrawal leaving withdrawals payable) and `funding`
 * (finance funding the share pools or the exchange from issuance).
 */
export type TransferType = 'withdraw' | 'exchange' | 'order' | 'reward' | 'transfer' | 'distribution' | 'fee' | 'payout' | 'topUp' | 'funding' | 'unknownPayment' | 'writeOff';

/** One side of a leg: a member's account of the leg's asset (opened on first use) or a system account by id. */
export type AccountRef = { member: number } | { system: number };

/** One movement of a request: all of a request's legs move, or none. */
export interface Leg {
  asset: Asset;
  type: TransferType;
  from: AccountRef;
  to: AccountRef;
  /** Minor units, > 0. */
  amount: bigint;
  memo?: string | null | undefined;
}

/**
 * A payout's movement: from a system account to many members at once, the i-th member getting `amounts[i]`. It
 * travels as two arrays, not a leg each (100,000 legs as JSON took a second to send and parse), and counts as one
 * leg per member: all of them move or none, with the request's other legs.
 */
export interface FanLeg {
  asset: Asset;
  type: TransferType;
  /** A system account: a fan leg never debits a member, so no balance rule applies to its source. */
  from: { system: number };
  to: { members: readonly number[] };
  /** Minor units, each > 0, one per member. */
  amounts: readonly bigint[];
  memo?: string | null | undefined;
}

const isFan = (leg: Leg | FanLeg): leg is FanLeg => 'members' in leg.to;

/** A rate limit as a counter (TigerBeetle's recipe): the member's total of `name` on `day` stays ≤ cap. */
export interface Limit {
  memberId: number;
  name: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** Minor units; negative to give back (a failed withdrawal). */
  amount: bigint;
  cap: bigint;
}

export type { RecordTable } from './recordTables';

/**
 * A two-phase transfer (TigerBeetle's pending, post and void; ledger_pending). `reserve`: the request's legs move
 * now and, with its limits, are held as a pending transfer in the stage named, whose id the request's record and
 * "$record" get. `move`: the pending transfer `id` goes from one of the stages `from` to `to`, with the request's
 * own legs (a post's); `to: 'voided'` instead moves the legs it holds back, in reverse order, and gives back its
 * limits. A move finding it in another stage is refused with `code` (3006 unless said).
 */
export type PendingPhase =
  | { reserve: string }
  | { id: bigint; from: readonly string[]; to: string; code?: ApiCodeValue | undefined };

/** The stage a void moves a pending transfer to; the engine reverses what it holds. */
export const VOIDED = 'voided';

/** What a request draws from a counter (ledger_counters), e.g. units of a goods item's stock: it must stay ≥ 0. */
export interface Draw {
  /** The counter's name, e.g. `stock:<goodsId>`. */
  key: string;
  /** > 0. */
  amount: bigint;
}

/** A money request as data. */
export interface LedgerRequest {
  /** At most once per (scope, endpoint, requestId); the body as it counts for "same body". None: no outcome kept. */
  key?: { scope: string; endpoint: string; requestId: string; body: Record<string, unknown> } | undefined;
  now: Date;
  /** A refusal the flow decided from the request alone; stored as the outcome once the key is checked. */
  reject?: ApiCodeValue | undefined;
  legs: readonly (Leg | FanLeg)[];
  limits?: readonly Limit[] | undefined;
  draws?: readonly Draw[] | undefined;
  /**
   * The business row written with the money (all its columns but `id`, by column name), into a table registered in
   * recordTables.ts. Its `id`, if the table has one, is its pending transfer's (a reserving request) or the next of
   * the table's sequence.
   */
  record?: { table: RecordTable; row: Record<string, unknown> } | undefined;
  /**
   * The success's result. What only the write knows goes in by placeholder: one field (`id`, or another name such
   * as `orderId`) may be "$record" (the business row's id), "$transfer" or "$entry" (the first member entry's
   * transfer or entry id), and `balanceAfter` may be "$balanceAfter" (the balance that entry left).
   */
  result?: Record<string, unknown> | undefined;
  /** The code for a debit the balance does not cover (3001 unless said). */
  shortCode?: ApiCodeValue | undefined;
  /** The code for a limit it would pass (3002 unless said). */
  limitCode?: ApiCodeValue | undefined;
  /** The code for a draw its counter does not hold (3002 unless said). */
  counterCode?: ApiCodeValue | undefined;
  /** A two-phase transfer's reservation or move. */
  pending?: PendingPhase | undefined;
  /**
   * The request may debit a frozen member (an operator's deduction under the operators' policy). Every other debit
   * of a frozen member's account is refused with 3008, whatever the flow: the engine's rule, not each route's.
   */
  debitFrozen?: boolean | undefined;
}

/** A request's outcome, and whether the set-based write answered it (the tests check the common case does). */
export type PostedOutcome = StoredOutcome & { setBased: boolean };

const side = (prefix: 'from' | 'to', ref: AccountRef) =>
  'member' in ref ? { [`${prefix}Member`]: ref.member } : { [`${prefix}System`]: ref.system };

const jsonRow = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([column, value]) => [column, typeof value === 'bigint' ? value.toString() : value instanceof Date ? value.toISOString() : value]));

const idSources = { $record: 'record', $transfer: 'transfer', $entry: 'entry' } as const;
const isIdSource = (value: unknown): value is keyof typeof idSources => typeof value === 'string' && value in idSources;

// A field left undefined is left out of the batch's JSON (engine.sql reads an absent field as NULL): less JSON for
// the database to parse, once per statement that reads the records.
interface ResultParts {
  result?: Record<string, unknown>;
  fill_id?: string;
  fill_id_key?: string;
  fill_balance?: true;
}

/** The result's fixed part, and which of its fields the write fills in (engine.sql's fill_id, fill_balance). */
function resultOf(result: Record<string, unknown> | undefined): ResultParts {
  if (!result) return {};
  const { balanceAfter, ...rest } = result;
  const idKey = Object.keys(rest).find((key) => isIdSource(rest[key]));
  const fixed = Object.fromEntries(Object.entries(rest).filter(([key]) => key !== idKey));
  const parts: ResultParts = { result: fixed };
  if (idKey !== undefined) {
    parts.fill_id = idSources[rest[idKey] as keyof typeof idSources];
    parts.fill_id_key = idKey;
  }
  if (balanceAfter === '$balanceAfter') parts.fill_balance = true;
  else if (balanceAfter !== undefined) fixed.balanceAfter = balanceAfter;
  return parts;
}

/** A pending phase as engine.sql's item fields: what a reservation holds, or which move it is. */
function pendingOf(request: LedgerRequest) {
  const phase = request.pending;
  if (!phase) return {};
  if ('reserve' in phase) {
    const held = request.legs.map((leg) => {
      if (isFan(leg)) throw new Error('a fan leg cannot be held by a pending transfer');
      return { asset: leg.asset, type: leg.type, amount: leg.amount.toString(), ...side('from', leg.from), ...side('to', leg.to), memo: leg.memo ?? null };
    });
    const limits = (request.limits ?? []).map(({ memberId, name, day, amount }) => ({ memberId, name, day, amount: amount.toString() }));
    return { pending_reserve: phase.reserve, pending_held: held, pending_limits: limits };
  }
  if (phase.to === VOIDED && request.legs.length > 0) throw new Error('a void moves what its pending transfer holds, no legs of its own');
  return { pending_id: phase.id.toString(), pending_from: phase.from.join(','), pending_to: phase.to, pending_code: phase.code ?? ApiCode.alreadyDecided };
}

/** A batch as engine.sql reads it: four arrays of flat records keyed by the request's ord, and the fan legs' arrays. */
function batchOf(requests: readonly LedgerRequest[]): { items: unknown[]; legs: unknown[]; fanTo: number[]; fanAmount: string[]; limits: unknown[]; counters: unknown[] } {
  const items = requests.map((request, ord) => ({
    ord,
    now: request.now.toISOString(),
    scope: request.key?.scope,
    endpoint: request.key?.endpoint,
    request_id: request.key?.requestId,
    body_hash: request.key ? hashBody(request.key.body) : undefined,
    reject: request.reject,
    short_code: request.shortCode ?? ApiCode.insufficientBalance,
    limit_code: request.limitCode ?? ApiCode.amountOutOfLimits,
    counter_code: request.counterCode ?? ApiCode.amountOutOfLimits,
    record_table: request.record?.table,
    record_row: request.record ? jsonRow(request.record.row) : undefined,
    record_id_sequence: request.record ? (recordIdSequence(request.record.table) ?? undefined) : undefined,
    debit_frozen: request.debitFrozen === true ? true : undefined,
    ...resultOf(request.result),
    ...pendingOf(request),
  }));
  const legs: unknown[] = [];
  const fanTo: number[] = [];
  const fanAmount: string[] = [];
  requests.forEach((request, ord) => {
    // A fan leg is legs n .. n + members - 1.
    let n = 0;
    for (const leg of request.legs) {
      if (isFan(leg)) {
        if (leg.to.members.length !== leg.amounts.length) throw new Error('a fan leg needs one amount per member');
        legs.push({ ord, n, asset: leg.asset, type: leg.type, fromSystem: leg.from.system, memo: leg.memo ?? undefined, fanFrom: fanTo.length + 1, fanCount: leg.amounts.length });
        for (const member of leg.to.members) fanTo.push(member);
        for (const amount of leg.amounts) fanAmount.push(amount.toString());
        n += leg.amounts.length;
        continue;
      }
      legs.push({
        ord,
        n: n++,
        asset: leg.asset,
        type: leg.type,
        amount: leg.amount.toString(),
        ...side('from', leg.from),
        ...side('to', leg.to),
        memo: leg.memo ?? undefined,
      });
    }
  });
  const limits = requests.flatMap((request, ord) =>
    (request.limits ?? []).map((limit) => ({ ord, ...limit, amount: limit.amount.toString(), cap: limit.cap.toString() })),
  );
  const counters = requests.flatMap((request, ord) => (request.draws ?? []).map((draw) => ({ ord, key: draw.key, amount: draw.amount.toString() })));
  return { items, legs, fanTo, fanAmount, limits, counters };
}

const postRow = z.object({ ord: z.number().int(), code: z.number().int(), result: z.unknown(), set_based: z.boolean() });

const p = (name: string) => sql.placeholder(name);

const postStatement = namedStatement(
  'ledger_post',
  sql`SELECT ord, code, result, set_based FROM ledger_post(${p('items')}::jsonb, ${p('legs')}::jsonb, ${p('fanTo')}::integer[], ${p('fanAmount')}::bigint[], ${p('limits')}::jsonb, ${p('counters')}::jsonb, ${p('config')}::jsonb)`,
);

/** engine.sql's answer when the app config row no longer holds the value the batch's requests were built from. */
const CONFIG_CHANGED = -1;

/** One call of ledger_post: the outcomes in request order, or undefined when `config` (JSON) is not the stored one. */
async function post(db: Db, requests: readonly LedgerRequest[], config: string | null): Promise<PostedOutcome[] | undefined> {
  const { items, legs, fanTo, fanAmount, limits, counters } = batchOf(requests);
  const rows = rowsOf(
    await postStatement(db).execute({
      items: JSON.stringify(items),
      legs: JSON.stringify(legs),
      fanTo,
      fanAmount,
      limits: JSON.stringify(limits),
      counters: JSON.stringify(counters),
      config,
    }),
    postRow,
  );
  if (rows.some((row) => row.ord === CONFIG_CHANGED)) return undefined;
  const outcomes = new Array<PostedOutcome | undefined>(requests.length);
  for (const row of rows) outcomes[row.ord] = { code: row.code, result: row.result, setBased: row.set_based };
  return outcomes.map((outcome, ord) => {
    if (!outcome) throw new Error(`ledger_post gave no outcome for request ${ord}`);
    return outcome;
  });
}

/**
 * Posts requests as one call of ledger_post: in the caller's transaction when `db` is one, else as a transaction
 * of its own.
 *
 * @param db - database or transaction handle
 * @param requests - any flows, any members, any order
 * @returns one outcome per request, in request order
 * @example
 * const [outcome] = await postRequests(tx, [{ now, legs: [{ asset: 'CREDIT', type: 'reward', from: { system: 1 }, to: { member: 7 }, amount }] }]);
 */
export async function postRequests(db: Db, requests: readonly LedgerRequest[]): Promise<PostedOutcome[]> {
  const outcomes = await post(db, requests, null);
  if (!outcomes) throw new Error('ledger_post checked a config it was not given');
  return outcomes;
}

/** The ledger batcher of one server: every flow's requests, batched together (ADR 0012's group commit). */
export interface LedgerBatcher {
  /**
   * Posts a request that the flow builds from the app config of its batch, and sweeps expired outcomes now and
   * then.
   *
   * @returns its outcome, once its batch committed
   */
  post(build: (config: AppConfig) => LedgerRequest, now: Date): Promise<PostedOutcome>;
}

/** A batch as large as this still commits in a few milliseconds on PGlite. */
const MAX_BATCH = 64;

/** Reads of the config one batch may need when the operator keeps changing it; then the batch fails. */
const CONFIG_ATTEMPTS = 5;

/**
 * The ledger batcher: one batcher in front of ledger_post for every flow. It keeps the app config between batches and
 * sends the value it built the batch from; ledger_post compares it with the row in the batch's transaction. So a
 * batch is decided by the config as it is when the batch runs, without a read of it before each batch (a round trip
 * that was a fifth of a batch's time on PostgreSQL under load). A batch built from an old config does nothing; the
 * batcher reads the config and builds the batch again.
 *
 * @param db - database handle (not a transaction: each batch commits on its own)
 * @param options - batches at once (LEDGER_BATCHES_IN_FLIGHT)
 * @returns post()
 * @example
 * const ledger = createLedgerBatcher(db, { maxInFlight: LEDGER_BATCHES_IN_FLIGHT });
 * const outcome = await ledger.post((config) => withdrawalRequest(input, config), now);
 */
export function createLedgerBatcher(db: Db, options: { maxInFlight: BatcherOptions['maxInFlight'] }): LedgerBatcher {
  let kept: Promise<StoredAppConfig> | undefined;
  const readConfig = (): Promise<StoredAppConfig> => {
    // A failed read is not kept: the next batch reads again.
    kept ??= getStoredAppConfig(db).catch((error: unknown) => {
      kept = undefined;
      throw error;
    });
    return kept;
  };
  const batcher = createBatcher(
    async (builds: ((config: AppConfig) => LedgerRequest)[]) => {
      for (let attempt = 0; attempt < CONFIG_ATTEMPTS; attempt++) {
        const reading = readConfig();
        const current = await reading;
        const outcomes = await post(db, builds.map((build) => build(current.config)), current.stored);
        if (outcomes) return outcomes;
        // Changed: read again (unless a batch beside this one already did).
        if (kept === reading) kept = undefined;
      }
      throw new Error(`the app config changed during each of ${CONFIG_ATTEMPTS} attempts of a ledger batch`);
    },
    { maxBatch: MAX_BATCH, maxInFlight: options.maxInFlight },
  );
  return {
    async post(build, now) {
      await sweepOutcomes(db, now);
      return batcher.submit(build);
    },
  };
}
