/** The audit log: rows written by recordAudit, and append-only in the database whatever the app's handle tries. */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../server/db/schema';
import { recordAudit, type AuditEntry } from '../../server/ops/audit';
import { describeWithDatabases } from './support/harness';

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at: new Date('2026-05-01T10:00:00.000Z'),
    actorAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    actorRoles: ['finance'],
    via: 'session',
    action: 'adminGrant',
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
        action: 'adminGrant',
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
      expect(rows).toEqual([{ action: 'adminGrant' }]);
    });

    it('TRUNCATE ... CASCADE of another table does not reach it', async () => {
      await recordAudit(ctx.db, entry());
      await ctx.db.execute(sql`TRUNCATE operators CASCADE`);
      expect(await ctx.db.select({ id: auditLog.id }).from(auditLog)).toHaveLength(1);
    });
  });
});
