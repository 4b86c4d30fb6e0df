/**
 * The retention rules (server/retention.ts; docs/operations/retention.md): a sweep removes the rows past their rule
 * and only those: members' tokens and operators' sessions 30 days after they expired or were revoked, the policy's
 * usage rows after 90 days; rows inside their rule, valid ones and the books stay.
 */
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../../server/db/client';
import { sweepRetention } from '../../server/retention';
import { describeWithDatabases } from './support/harness';
import { operatorWithSession } from './support/financeDeskCalls';
import { accounts, signInBound } from './support/memberSignIn';

const DAY = 86_400_000;

describeWithDatabases('retention sweeps', (ctx) => {
  const names = (table: 'tokens' | 'operator_sessions', key: 'hash') =>
    queryRows(ctx.db, sql`SELECT ${sql.identifier(key)} AS name FROM ${sql.identifier(table)} ORDER BY 1`, z.object({ name: z.string() })).then((rows) => rows.map((row) => row.name));

  it('removes only what is past its rule, in every swept table, and leaves the books', async () => {
    const app = await ctx.app();
    await signInBound(app, accounts.alice, ctx.clock.now());
    const operator = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    const [member] = await queryRows(ctx.db, sql`SELECT id FROM members WHERE address = ${accounts.alice.address}`, z.object({ id: z.number() }));
    const now = ctx.clock.now();
    const at = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
    // Tokens: expired 31 days ago (gone), expired 29 days ago (kept), revoked 31 days ago though valid long (gone), valid.
    for (const [hash, expires, revoked] of [
      ['t-expired-31', at(31), null],
      ['t-expired-29', at(29), null],
      ['t-revoked-31', at(-300), at(31)],
      ['t-valid', at(-1), null],
    ] as const) {
      await ctx.db.execute(sql`INSERT INTO tokens (hash, member_id, created_at, expires_at, revoked_at) VALUES (${hash}, ${member?.id ?? 0}::int, ${at(40)}::timestamptz, ${expires}::timestamptz, ${revoked}::timestamptz)`);
    }
    for (const [hash, expires, revoked] of [
      ['s-expired-31', at(31), null],
      ['s-ended-29', at(-1), at(29)],
    ] as const) {
      await ctx.db.execute(sql`INSERT INTO operator_sessions (hash, address, created_at, expires_at, revoked_at) VALUES (${hash}, ${operator.address}, ${at(40)}::timestamptz, ${expires}::timestamptz, ${revoked}::timestamptz)`);
    }
    for (const days of [91, 89]) {
      await ctx.db.execute(sql`INSERT INTO ops_policy_usage (act, operator, amount, at) VALUES ('grant', ${operator.address}, 1, ${at(days)}::timestamptz)`);
    }
    // Reconcile's runs: 31 days old (gone), 29 days old (kept); the newest, 40 days old, stays as the only verdict
    // the metrics have, whatever its age (ids decide which is newest: a schedule that stopped a while ago).
    for (const [days, ok] of [[31, true], [29, false], [40, true]] as const) {
      await ctx.db.execute(sql`INSERT INTO reconcile_runs (ran_at, ok, difference, result) VALUES (${at(days)}::timestamptz, ${ok}, 0, '{}'::jsonb)`);
    }
    const tokensBefore = await names('tokens', 'hash');
    const sessionsBefore = await names('operator_sessions', 'hash');

    // One row per batch: a round goes on until a batch finds fewer than it may remove.
    expect(await sweepRetention(ctx.db, now, { batch: 1 })).toEqual({ tokens: 2, operator_sessions: 1, ops_policy_usage: 1, reconcile_runs: 1, alert_deliveries: 0 });
    const runs = await queryRows(ctx.db, sql`SELECT ran_at AS "ranAt", ok FROM reconcile_runs ORDER BY id`, z.object({ ranAt: z.coerce.date(), ok: z.boolean() }));
    expect(runs.map((run) => [Math.round((now.getTime() - run.ranAt.getTime()) / DAY), run.ok])).toEqual([[29, false], [40, true]]);
    expect(await names('tokens', 'hash')).toEqual(tokensBefore.filter((hash) => hash !== 't-expired-31' && hash !== 't-revoked-31'));
    expect(await names('operator_sessions', 'hash')).toEqual(sessionsBefore.filter((hash) => hash !== 's-expired-31'));
    const usage = await queryRows(ctx.db, sql`SELECT at FROM ops_policy_usage ORDER BY at`, z.object({ at: z.coerce.date() }));
    expect(usage.map((row) => Math.round((now.getTime() - row.at.getTime()) / DAY))).toEqual([89]);
    // Again: nothing more.
    expect(await sweepRetention(ctx.db, now)).toEqual({ tokens: 0, operator_sessions: 0, ops_policy_usage: 0, reconcile_runs: 0, alert_deliveries: 0 });
  });
});
