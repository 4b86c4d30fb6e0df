/**
 * Profiles the ledger engine's batch without HTTP: batches of `--batch` requests of one flow (withdrawals,
 * transfers, exchanges), posted back to back through `postRequests`, with the time per batch split into the
 * request building (engine.ts: batchOf and JSON) and the database call, and the CPU spent per batch (PGlite runs in
 * this thread, in memory or under `--dir`, so its CPU is this process's; on PostgreSQL the backend's CPU is read from
 * /proc). The tables hold `--holders` members with an account each (the bench's payout leaves 100,000), analyzed
 * as the bench does.
 *
 * - `--probes`: the engine with a probe after each statement of ledger_post's body (ledger_prof adds the time since
 *   the last probe to a setting); prints the ms per batch up to each probe, labelled by the line in the engine's
 *   migration: a statement-level profile that works in PGlite, where auto_explain's log is out of reach.
 * - `--before <file>`: SQL run after the migrations (an engine variant; its probes, if any, are printed too).
 * - `--variant <file>` (repeatable) and `--rounds`: A/B on one database, the variants applied and measured in
 *   turn, round after round, so the host's changing speed falls on each alike; the summary gives each one's CPU
 *   per batch (min and median).
 * - `--explain`: the plans of every statement inside ledger_post for one batch (auto_explain with
 *   log_nested_statements; PostgreSQL only: they go to the server's log).
 *
 *   npx tsx bench/engineProfile.ts --flow withdrawals --batch 32 --batches 300
 *   .ci/with-postgres.sh npx tsx bench/engineProfile.ts --flow transfers --variant a.sql --variant b.sql
 *
 * Not part of `npm run bench`: a tool for finding where a batch's time goes (bench/README.md, "Profiling the
 * engine").
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { toMinor } from '../api-schema/amount';
import { getAppConfig, type AppConfig } from '../server/config/appConfig';
import { openDatabase, queryRows, type Database } from '../server/db/client';
import { systemAccountId } from '../server/ledger/accounts';
import { postRequests, type LedgerRequest } from '../server/ledger/engine';
import { exchangeRequest } from '../server/ledger/exchange';
import { memberTransferRequest } from '../server/ledger/memberTransfers';
import { engineMigration } from '../server/ledger/engineSql';
import { withdrawalRequest } from '../server/ledger/withdrawals';
import { seed } from '../server/seed/seed';

const { values: args } = parseArgs({
  options: {
    flow: { type: 'string', default: 'withdrawals' },
    batch: { type: 'string', default: '32' },
    batches: { type: 'string', default: '200' },
    members: { type: 'string', default: '20' },
    holders: { type: 'string', default: '100000' },
    explain: { type: 'boolean', default: false },
    before: { type: 'string' },
    variant: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '4' },
    dir: { type: 'string' },
    probes: { type: 'boolean', default: false },
  },
});

const MEMBERS = Number(args.members);
const BATCH = Number(args.batch);
const BATCHES = Number(args.batches);
const url = process.env.DATABASE_URL || undefined;

type Build = (config: AppConfig, member: number, partner: number, turn: number, now: Date) => LedgerRequest;

const amount = toMinor('10');
const builds: Record<string, Build> = {
  withdrawals: (config, member, _partner, _turn, now) => withdrawalRequest({ memberId: member, amount, requestId: randomUUID(), now }, config),
  transfers: (config, member, partner, _turn, now) =>
    memberTransferRequest({
      endpoint: 'transferWpos',
      asset: 'WPOS',
      fromMemberId: member,
      toMemberId: partner,
      amount,
      minimum: toMinor(config.minTransfer),
      recipientAllowed: true,
      requestId: randomUUID(),
      now,
    }),
  exchanges: (config, member, _partner, turn, now) => exchangeRequest({ memberId: member, from: turn % 2 ? 'WPOS' : 'CREDIT', amount, requestId: randomUUID(), now }, config),
};

/** The members of the profile, each granted plenty of both assets by one engine request. */
async function prepare(database: Database): Promise<number[]> {
  await seed(database.db);
  await database.db.execute(
    sql`UPDATE app_config SET value = value || '{"maxWithdraw": "999999999999", "dailyWithdrawCap": "999999999999"}'::jsonb WHERE id = 1`,
  );
  const members = await queryRows(
    database.db,
    sql`INSERT INTO members (address, invite_code)
        SELECT '0x' || lpad(to_hex(1000000 + i), 40, '0'), 'P' || lpad(i::text, 7, '0') FROM generate_series(1, ${MEMBERS}::int) AS i
        ON CONFLICT DO NOTHING RETURNING id`,
    z.object({ id: z.number() }),
  );
  // The bench's tables are that large when its loads run (its payout's holders, each with an account); the plans
  // are made for them.
  await database.db.execute(
    sql`INSERT INTO members (address, invite_code)
        SELECT '0x' || lpad(to_hex(i), 40, '0'), 'H' || lpad(i::text, 7, '0') FROM generate_series(1, ${Number(args.holders)}::int) AS i
        ON CONFLICT DO NOTHING`,
  );
  await database.db.execute(
    sql`INSERT INTO ledger_accounts (asset, kind, member_id) SELECT 'WPOS', 'member', m.id FROM members m WHERE m.invite_code LIKE 'H%' ON CONFLICT DO NOTHING`,
  );
  // As the bench does after its payout (PGlite never analyzes by itself; the other tables keep the planner's guess).
  await database.db.execute(sql`VACUUM ANALYZE ledger_accounts`);
  const ids = members.map((member) => member.id);
  if (ids.length < MEMBERS) throw new Error('run on a fresh database (its members exist already)');
  for (const asset of ['CREDIT', 'WPOS'] as const) {
    const [granted] = await postRequests(database.db, [
      {
        now: new Date(),
        legs: [{ asset, type: 'reward', from: { system: systemAccountId(asset, 'issuance') }, to: { members: ids }, amounts: ids.map(() => 10n ** 15n) }],
      },
    ]);
    if (granted?.code !== 0) throw new Error(`grant refused: ${granted?.code}`);
  }
  return ids;
}

/** CPU seconds of the PostgreSQL backend `pid` (utime + stime from /proc; the server runs on this machine). */
function backendCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const PROBE_FUNCTION = `CREATE OR REPLACE FUNCTION ledger_prof(p_label text) RETURNS void LANGUAGE plpgsql AS $prof$
DECLARE
  v_now double precision := extract(epoch FROM clock_timestamp()) * 1000;
  v_last text := current_setting('prof.last', true);
BEGIN
  IF p_label <> 'start' AND coalesce(v_last, '') <> '' THEN
    PERFORM set_config('prof.' || p_label,
      (coalesce(nullif(current_setting('prof.' || p_label, true), ''), '0')::double precision + v_now - v_last::double precision)::text, false);
  END IF;
  PERFORM set_config('prof.last', (extract(epoch FROM clock_timestamp()) * 1000)::text, false);
END $prof$`;

/**
 * The engine as its migration installs it, with a probe after each top-level statement of ledger_post's body (a
 * line of its own at two spaces that ends one), labelled by that line's number in the engine's definitions.
 */
function engineWithProbes(): string {
  const lines = engineMigration([]).split('\n');
  const start = lines.findIndex((line) => line.startsWith('CREATE OR REPLACE FUNCTION ledger_post('));
  let inBody = false;
  const out: string[] = [];
  lines.forEach((line, index) => {
    if (index > start && start >= 0 && line === 'BEGIN') {
      inBody = true;
      out.push(line, "  PERFORM ledger_prof('start');");
      return;
    }
    if (inBody && line.startsWith('END $$')) {
      inBody = false;
      out.push("  PERFORM ledger_prof('end');");
    }
    out.push(line);
    if (inBody && /^ {2}\S/.test(line) && /;$/.test(line) && !/^ {2}(IF|ELSE|ELSIF|LOOP|FOREACH|RETURN;)/.test(line)) out.push(`  PERFORM ledger_prof('line_${index + 1}');`);
  });
  return `${out.join('\n')}--> statement-breakpoint\n${PROBE_FUNCTION}`;
}

async function main(): Promise<void> {
  const build = builds[args.flow];
  if (!build) throw new Error(`--flow is one of ${Object.keys(builds).join(', ')}`);
  // One connection on PostgreSQL, so the backend whose CPU is read is the one that runs every batch.
  // PGlite in this thread, in memory unless --dir names a data folder (as the server runs it, on disk).
  const database = await openDatabase(url ? { url, poolSize: 1 } : { thread: false, dataDir: args.dir });
  await database.migrate();
  // An experiment: SQL run after the migrations (statements split as in a migration), e.g. an engine variant.
  const before = args.probes ? engineWithProbes() : args.before ? readFileSync(args.before, 'utf8') : '';
  for (const statement of before.split('--> statement-breakpoint')) {
    if (statement.trim()) await database.db.execute(sql.raw(statement));
  }
  const ids = await prepare(database);
  const config = await getAppConfig(database.db);
  const [backend] = url ? await queryRows(database.db, sql`SELECT pg_backend_pid() AS pid`, z.object({ pid: z.number() })) : [];
  let turn = 0;
  const batchOfRequests = () => {
    const now = new Date();
    return Array.from({ length: BATCH }, () => {
      const index = turn++;
      return build(config, ids[index % ids.length] ?? 0, ids[(index + 1) % ids.length] ?? 0, index, now);
    });
  };
  // Warm-up: plans cached, JIT-free paths taken.
  for (let i = 0; i < 20; i++) await postRequests(database.db, batchOfRequests());

  if (args.explain) {
    if (!url) throw new Error('--explain needs DATABASE_URL (auto_explain writes to the server log)');
    await database.db.execute(sql.raw(`LOAD 'auto_explain'`));
    for (const setting of ['log_min_duration = 0', 'log_analyze = on', 'log_buffers = on', 'log_nested_statements = on', 'log_timing = on']) {
      await database.db.execute(sql.raw(`SET auto_explain.${setting}`));
    }
    await postRequests(database.db, batchOfRequests());
    await database.db.execute(sql.raw(`SET auto_explain.log_min_duration = -1`));
    console.log('plans written to the server log (auto_explain)');
  }

  const measure = async () => {
    let buildMs = 0;
    let postMs = 0;
    let setBased = 0;
    const cpuStart = process.cpuUsage();
    const pgCpuStart = backend ? backendCpu(backend.pid) : 0;
    const started = performance.now();
    for (let i = 0; i < BATCHES; i++) {
      const t0 = performance.now();
      const requests = batchOfRequests();
      const t1 = performance.now();
      const outcomes = await postRequests(database.db, requests);
      postMs += performance.now() - t1;
      buildMs += t1 - t0;
      for (const outcome of outcomes) {
        if (outcome.code !== 0) throw new Error(`refused: ${outcome.code}`);
        if (outcome.setBased) setBased++;
      }
    }
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpuStart);
    return { wall, buildMs, postMs, setBased, cpuMs: (cpu.user + cpu.system) / 1000, backendMs: backend ? (backendCpu(backend.pid) - pgCpuStart) * 1000 : undefined };
  };
  const perBatch = (value: number) => (value / BATCHES).toFixed(3);
  const line = (label: string, m: Awaited<ReturnType<typeof measure>>) =>
    `${label}${url ? 'postgres' : 'pglite'} ${args.flow} batch ${BATCH}: ${perBatch(m.wall)} ms/batch wall, ${((BATCHES * BATCH) / (m.wall / 1000)).toFixed(0)} tx/s; ` +
    `build ${perBatch(m.buildMs)} ms, post ${perBatch(m.postMs)} ms; process cpu ${perBatch(m.cpuMs)} ms/batch` +
    (m.backendMs === undefined ? '' : `; backend cpu ${perBatch(m.backendMs)} ms/batch`) +
    `; set-based ${m.setBased}/${BATCHES * BATCH}`;
  const applyFile = async (file: string) => {
    for (const statement of readFileSync(file, 'utf8').split('--> statement-breakpoint')) {
      if (statement.trim()) await database.db.execute(sql.raw(statement));
    }
  };
  if (!args.variant) {
    console.log('measuring');
    console.log(line('', await measure()));
    // Probes (`PERFORM ledger_prof('<label>')` in a --before variant of the engine): ms per batch between them.
    const labels = [...new Set([...before.matchAll(/ledger_prof\('(\w+)'\)/g)].map((match) => match[1] ?? ''))];
    for (const label of labels.filter((name) => name !== 'start')) {
      const [row] = await queryRows(database.db, sql`SELECT current_setting(${`prof.${label}`}, true) AS ms`, z.object({ ms: z.string().nullable() }));
      console.log(`  ${label}: ${(Number(row?.ms ?? 0) / (BATCHES + 20)).toFixed(3)} ms/batch`);
    }
  } else {
    // A/B on one database, rounds interleaved so that the host's changing speed hits every variant alike.
    const cpu = new Map<string, number[]>();
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const variant of args.variant) {
        await applyFile(variant);
        for (let i = 0; i < 5; i++) await postRequests(database.db, batchOfRequests());
        const m = await measure();
        console.log(line(`round ${round} ${variant}: `, m));
        cpu.set(variant, [...(cpu.get(variant) ?? []), (m.backendMs ?? m.cpuMs) / BATCHES]);
      }
    }
    for (const [variant, values] of cpu) {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(`${variant}: cpu ms/batch min ${sorted[0]?.toFixed(3)} median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(3)}`);
    }
  }
  await database.close();
}

await main();
