/** The audit log: rows written by recordAudit, and append-only in the database whatever the app's handle tries. */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { auditLog } from '../../server/db/schema';
import { recordAudit, type AuditEntry } from '../../server/ops/audit';
import { csvCell } from '../../server/ops/auditQuery';
import { expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { addOperator, signInOperator } from './support/testOperators';
import { accounts, envelope } from './support/memberSignIn';

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at: new Date('2026-05-01T10:00:00.000Z'),
    actorAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    actorRoles: ['finance'],
    via: 'session',
    action: 'opsGrant',
    target: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    before: null,
    after: { amount: 5_000_000n, memo: 'thanks' },
    requestId: 'req-1',
    clientAddress: '127.0.0.1',
    ...overrides,
  };
}

describeWithDatabases('audit log', (ctx) => {
  it('appends a row with who, what, when and from where; bigints as decimal strings', async () => {
    const id = await recordAudit(ctx.db, entry());
    const rows = await ctx.db.select().from(auditLog);
    expect(rows).toEqual([
      {
        id,
        at: new Date('2026-05-01T10:00:00.000Z'),
        actorAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        actorRoles: ['finance'],
        via: 'session',
        action: 'opsGrant',
        target: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
        before: null,
        after: { amount: '5000000', memo: 'thanks' },
        requestId: 'req-1',
        clientAddress: '127.0.0.1',
      },
    ]);
  });

  it('is written with its act in one transaction: a failed act leaves no row', async () => {
    await expect(
      ctx.db.transaction(async (tx) => {
        await recordAudit(tx, entry());
        throw new Error('the act failed');
      }),
    ).rejects.toThrow('the act failed');
    expect(await ctx.db.select().from(auditLog)).toEqual([]);
  });

  describe('append-only in the database, with the app’s own handle', () => {
    it.each([
      ['UPDATE', sql`UPDATE audit_log SET action = 'nothing'`],
      ['UPDATE of no row', sql`UPDATE audit_log SET action = 'nothing' WHERE id < 0`],
      ['DELETE', sql`DELETE FROM audit_log`],
      ['TRUNCATE', sql`TRUNCATE audit_log`],
    ])('%s is refused and the rows stay', async (_name, statement) => {
      await recordAudit(ctx.db, entry());
      await expect(ctx.db.execute(statement)).rejects.toThrow();
      const rows = await ctx.db.select({ action: auditLog.action }).from(auditLog);
      expect(rows).toEqual([{ action: 'opsGrant' }]);
    });

    it('TRUNCATE ... CASCADE of another table does not reach it', async () => {
      await recordAudit(ctx.db, entry());
      await ctx.db.execute(sql`TRUNCATE operators CASCADE`);
      expect(await ctx.db.select({ id: auditLog.id }).from(auditLog)).toHaveLength(1);
    });
  });
});

describeWithDatabases('opsAudit and the CSV export', (ctx) => {
  const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 10, minute));
  const alice = accounts.alice.address;
  const bob = accounts.bob.address;

  async function setup() {
    await addOperator(ctx.db, alice, ['admin']);
    const app = await ctx.app();
    const { headers } = await signInOperator(app, accounts.alice, ctx.clock.now());
    // Adding alice (cliAdd) and her sign-in (opsSignIn) wrote two rows; these five follow.
    await recordAudit(ctx.db, entry({ at: at(1), actorAddress: alice, action: 'opsOperatorPut', target: bob }));
    await recordAudit(ctx.db, entry({ at: at(2), actorAddress: bob, action: 'opsGrant', target: alice }));
    await recordAudit(ctx.db, entry({ at: at(3), actorAddress: bob, action: 'opsGrant', target: bob, after: { memo: '=HYPERLINK("http://evil.test","x")' } }));
    await recordAudit(ctx.db, entry({ at: at(4), actorAddress: null, via: 'bootstrap', actorRoles: ['admin'], action: 'opsOperatorRemove', target: bob }));
    await recordAudit(ctx.db, entry({ at: at(5), actorAddress: alice, action: 'opsKeyRevoke', target: '-1+1', requestId: '@SUM(A1)', clientAddress: '10.0.0.1' }));
    return { app, headers };
  }

  async function audit(app: Awaited<ReturnType<typeof setup>>['app'], headers: Record<string, string>, query: Record<string, string>) {
    const response = await app.inject({ method: 'GET', url: '/api/admin/audit', headers, query });
    return envelope<{ list: { id: string; action: string; target: string | null; actorAddress: string | null }[]; nextCursor: string | null; total: number }>(response);
  }

  it('filters by actor, action, target and time, newest first', async () => {
    const { app, headers } = await setup();
    const actions = async (query: Record<string, string>) => (await audit(app, headers, query)).result?.list.map((row) => `${row.action}:${row.target}`);
    expect(await actions({ actor: bob })).toEqual([`opsGrant:${bob}`, `opsGrant:${alice}`]);
    expect(await actions({ action: 'opsGrant', target: bob })).toEqual([`opsGrant:${bob}`]);
    expect(await actions({ from: at(2).toISOString(), to: at(4).toISOString() })).toEqual([`opsGrant:${bob}`, `opsGrant:${alice}`]);
    expect(await actions({ actor: accounts.carol.address })).toEqual([]);
    // The total counts what the filters match: all seven rows, bob's two, one, none.
    const totals: [Record<string, string>, number][] = [[{}, 7], [{ actor: bob }, 2], [{ action: 'opsGrant', target: bob }, 1], [{ actor: accounts.carol.address }, 0]];
    for (const [query, total] of totals) expect((await audit(app, headers, query)).result?.total).toBe(total);
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/audit', headers, query: { actor: 'nobody' } }), ApiCode.invalidParameters, 'actor');
  });

  it('pages with a cursor until nextCursor is null', async () => {
    const { app, headers } = await setup();
    const seen: string[] = [];
    let cursor: string | null | undefined;
    for (let page = 0; page < 10; page++) {
      const body = await audit(app, headers, { limit: '2', ...(cursor ? { cursor } : {}) });
      // The total counts every page's rows, whichever page is read.
      expect(body.result?.total).toBe(7);
      seen.push(...(body.result?.list.map((row) => row.action) ?? []));
      cursor = body.result?.nextCursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    expect(seen).toEqual(['opsKeyRevoke', 'opsOperatorRemove', 'opsGrant', 'opsGrant', 'opsOperatorPut', 'opsSignIn', 'cliAdd']);
    // With a filter, the filter's count on each of its pages.
    const first = (await audit(app, headers, { actor: bob, limit: '1' })).result;
    expect(first).toMatchObject({ list: [{ target: bob }], total: 2 });
    expect((await audit(app, headers, { actor: bob, limit: '1', cursor: first?.nextCursor ?? '' })).result).toMatchObject({ list: [{ target: alice }], nextCursor: null, total: 2 });
  });

  it('exports the same rows as CSV, every cell quoted and formula-safe', async () => {
    const { app, headers } = await setup();
    const response = await app.inject({ method: 'GET', url: '/api/admin/audit.csv', headers, query: { actor: bob } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit.csv"');
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe('id,at,actorAddress,actorRoles,via,action,target,before,after,requestId,clientAddress');
    expect(lines).toHaveLength(4);
    // A JSON cell starts with {, so it stays as it is; a cell starting with = + - @ gets a quote first.
    expect(lines[1]).toContain('"{""memo"":""=HYPERLINK(');
    const all = (await app.inject({ method: 'GET', url: '/api/admin/audit.csv', headers })).body;
    expect(all).toContain(`"'-1+1"`);
    expect(all).toContain(`"'@SUM(A1)"`);
  });

  it('csvCell quotes, doubles quotes and defuses formulas', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('a "b", c\nd')).toBe('"a ""b"", c\nd"');
    expect(csvCell('=1+1')).toBe(`"'=1+1"`);
    expect(csvCell('+1')).toBe(`"'+1"`);
    expect(csvCell('-1')).toBe(`"'-1"`);
    expect(csvCell('@x')).toBe(`"'@x"`);
    expect(csvCell('\tx')).toBe(`"'\tx"`);
  });
});
