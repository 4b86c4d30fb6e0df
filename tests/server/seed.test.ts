/** Migrations and seed: idempotent, and what a fresh start shows. */
import { eq, sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import { getAppConfig } from '../../server/config/appConfig';
import { about, members, notices } from '../../server/db/schema';
import { queryRows } from '../../server/db/client';
import { systemAccountId } from '../../server/ledger/accounts';
import { SEED_INVITER } from '../../server/seed/content';
import { SEED_DEMO_FUNDS, seed } from '../../server/seed/seed';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced } from './support/testLedger';
import { snapshotDb } from './support/snapshot';

describeWithDatabases('seed', (ctx) => {
  it('changes nothing when run again, and migrating again is a no-op', async () => {
    const before = await snapshotDb(ctx.db);
    await ctx.database.migrate();
    await seed(ctx.db);
    await Promise.all([seed(ctx.db), seed(ctx.db)]);
    expect(await snapshotDb(ctx.db)).toBe(before);
  });

  it('funds the demo’s pools and exchange once, ever, with its downline; a real start funds nothing', async () => {
    const funded = async () =>
      queryRows(
        ctx.db,
        sql`SELECT id, balance::text AS balance FROM ledger_accounts WHERE id IN (${systemAccountId('CREDIT', 'exchange')}, ${systemAccountId('WPOS', 'pools')}) ORDER BY id`,
        z.object({ id: z.number(), balance: z.string() }),
      );
    expect(await funded()).toEqual([
      { id: systemAccountId('CREDIT', 'exchange'), balance: '0' },
      { id: systemAccountId('WPOS', 'pools'), balance: '0' },
    ]);
    await Promise.all([seed(ctx.db, { demoTeam: true }), seed(ctx.db, { demoTeam: true })]);
    await seed(ctx.db, { demoTeam: true });
    expect(await funded()).toEqual([
      { id: systemAccountId('CREDIT', 'exchange'), balance: toMinor(SEED_DEMO_FUNDS.exchangeCredit).toString() },
      { id: systemAccountId('WPOS', 'pools'), balance: toMinor(SEED_DEMO_FUNDS.sharePools).toString() },
    ]);
    await expectBooksBalanced(ctx.db);
  });

  it('never overwrites an edited row', async () => {
    await ctx.db.update(about).set({ title: 'Edited' }).where(eq(about.lang, 'en'));
    await seed(ctx.db);
    const [row] = await ctx.db.select().from(about).where(eq(about.lang, 'en'));
    expect(row?.title).toBe('Edited');
  });

  it('creates the root inviter DEMO2026 at a checksummed address', async () => {
    const [root] = await ctx.db.select().from(members).where(eq(members.inviteCode, SEED_INVITER.inviteCode));
    expect(root).toMatchObject({ address: getAddress(SEED_INVITER.address), isRoot: true, recommenderId: null });
  });

  it('stores BNB Smart Chain with full add-chain parameters and the limits', async () => {
    const config = await getAppConfig(ctx.db);
    expect(config).toMatchObject({
      chainId: 56,
      chain: { chainName: 'BNB Smart Chain', nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 }, rpcUrls: ['https://bsc-dataseed.bnbchain.org'], blockExplorerUrls: ['https://bscscan.com'] },
      minWithdraw: '10',
      maxWithdraw: '5000',
      withdrawFee: '1',
      dailyWithdrawCap: '10000',
      exchangeRate: '0.5',
      minTransfer: '1',
      siweStatement: 'Sign in to Member DApp',
    });
  });

  it('has at least 3 notices with HTML in each language, and the about page in both', async () => {
    for (const lang of ['zh', 'en']) {
      const rows = await ctx.db.select().from(notices).where(eq(notices.lang, lang));
      expect(rows.length).toBeGreaterThanOrEqual(3);
      for (const row of rows) expect(row.content).toMatch(/<\w+>/);
      expect(await ctx.db.select().from(about).where(eq(about.lang, lang))).toHaveLength(1);
    }
  });
});
