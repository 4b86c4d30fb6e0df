/**
 * The share pools' payout across kill -9 (server/ledger/poolPayouts.ts): `server/main.ts` as `npm start` runs it, on
 * PGlite in a temp DATA_DIR and on PostgreSQL when the run has it, paying two holders per transaction
 * (SHARE_POOL_PAYOUT_BATCH=2). PAYOUT_FAULT_AT=afterBatch makes the process kill itself (SIGKILL) as soon as the
 * operator's distribute has committed its first batch. The restarted server pays the rest by itself, every holder
 * exactly once, the books still balanced, and the day's distribute then pays nothing more.
 */
import { randomUUID } from 'node:crypto';
import { expect, vi } from 'vitest';
import { apiCaller, describeOnEveryStorage, expectKilledDuring, mainStarter, prepareMainRun, signInOverHttp, treasuryHeadersOverHttp, type Cleanup, type MainStorage } from './support/mainProcess';

const HOLDERS = 5;

describeOnEveryStorage('a share-pool payout across a kill -9', 'pays every holder once, the rest after the restart ($name)', 240_000, payoutAcrossKill);

interface Profit {
  total: number;
  totalProfit: string;
}

async function payoutAcrossKill(storage: MainStorage, cleanup: Cleanup): Promise<void> {
  const { env, port } = await prepareMainRun(storage, cleanup);
  const { start } = mainStarter(cleanup);
  const base = `http://127.0.0.1:${port}`;
  const call = apiCaller(base);
  const batches = { ...env, SHARE_POOL_PAYOUT_BATCH: '2' };
  const first = await start({ ...batches, PAYOUT_FAULT_AT: 'afterBatch' });
  const param = await call<{ chainId: number }>('/api/dapp/dappParam');
  const treasury = { ...(await treasuryHeadersOverHttp(base)), 'content-type': 'application/json' };
  const post = (headers: Record<string, string>, url: string, body: Record<string, unknown>) =>
    fetch(`${base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(async (response) => (await response.json()) as { code: number });
  const holders: Awaited<ReturnType<typeof signInOverHttp>>[] = [];
  for (let index = 0; index < HOLDERS; index++) {
    const member = await signInOverHttp(base, param.chainId);
    const granted = await post(treasury, '/api/admin/grant', { address: member.address, asset: 'WPOS', amount: String(10 * (index + 1)), requestId: randomUUID() });
    expect(granted.code).toBe(0);
    holders.push(member);
  }
  expect((await post(treasury, '/api/admin/fund', { account: 'sharePools', amount: '1000', requestId: randomUUID() })).code).toBe(0);
  const profitOf = (auth: string) => call<Profit>('/api/member/wposProfit', { headers: { authorization: auth } });

  // The distribute's answer never comes: the process dies once its first batch committed.
  await expectKilledDuring(first, fetch(`${base}/api/admin/distribute`, { method: 'POST', headers: treasury, body: '{}' }));

  await start(batches);
  // The restarted server's payout timer finishes the plan with no operator call: every holder paid once.
  await vi.waitFor(
    async () => {
      const profits = await Promise.all(holders.map((holder) => profitOf(holder.auth)));
      expect(profits.map((profit) => profit.total)).toEqual(holders.map(() => 1));
    },
    { timeout: 30_000, interval: 250 },
  );
  const treasuryAgain = { ...(await treasuryHeadersOverHttp(base)), 'content-type': 'application/json' };
  const again = await fetch(`${base}/api/admin/distribute`, { method: 'POST', headers: treasuryAgain, body: '{}' }).then(async (response) => (await response.json()) as { code: number; result: { pools: number; paid: string } });
  expect(again).toEqual({ code: 0, result: { pools: 0, paid: '0', unfunded: 0 } });
  const profits = await Promise.all(holders.map((holder) => profitOf(holder.auth)));
  expect(profits.map((profit) => profit.total)).toEqual(holders.map(() => 1));
  // Shares grow with the holding: each holder holds 10 more than the one before.
  const amounts = profits.map((profit) => Number(profit.totalProfit));
  expect(amounts.every((amount, index) => index === 0 || amount > (amounts[index - 1] ?? 0))).toBe(true);
  // The books: every asset totals 0 and no account is below zero.
  const ledger = await call<{ assets: Record<'CREDIT' | 'WPOS', { total: string }>; negativeAccounts: number }>('/api/admin/ledger', { headers: treasuryAgain });
  expect({ credit: ledger.assets.CREDIT.total, wpos: ledger.assets.WPOS.total, negative: ledger.negativeAccounts }).toEqual({ credit: '0', wpos: '0', negative: 0 });
}
