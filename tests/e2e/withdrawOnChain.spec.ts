/**
 * Money out end to end in Debian Chromium against the real server with a real chain: anvil with the
 * token, the server's top-up watcher and payer on it (a hot wallet of its own, withdrawals up to 1000 approved on
 * request), and the test wallet holding its key in Node. A member (signed in over HTTP: the sign-in screens are
 * journeys.spec.ts's subject) tops up 25 from the wallet, withdraws
 * 12.5 from the sheet over /me, sees it approved with what happens next, and once the payment is deep enough sees it
 * paid in the records with its transaction linked; the wallet's token balance is 11.5 higher (the fee is 1), and the
 * receipt adds the token to the wallet (wallet_watchAsset). With E2E_SCREENSHOTS=1 each step is saved under
 * test-results/screenshots/withdraw-chain-*.png.
 */
import { describe, expect, it } from 'vitest';
import { erc20Abi, parseUnits } from 'viem';
import { screenshot } from './support/browser';
import { memberCall, setupJourneys } from './support/journey';
import { translateWith } from './support/visual';
import type { Lng } from './support/visual';
import { TEST_NODE_CHAIN_ID } from '../server/support/testChain';
import { anvilKeys } from './support/wallet/anvilKeys';
import { privateKeyToAccount } from 'viem/accounts';

const e2e = setupJourneys({ chain: true });

// In zh, the fallback language; the top-up journeys (topUp.spec.ts) take turns between the two, and the visual check
// shows every screen of this journey in both.
const lng: Lng = 'zh';
const locale = 'zh-CN';
const key = 2;

function node() {
  const chain = e2e.server.chain;
  if (!chain) throw new Error('this file needs the server with a chain');
  return chain;
}

describe('a withdrawal paid on chain (zh)', () => {
  const t = (name: string, values: Record<string, string | number> = {}) => translateWith(lng, name, values);

  it('withdraws 12.5 after a top-up of 25: approved, then paid to the wallet once, the record linking its transaction', async () => {
    const privateKey = anvilKeys[key];
    if (!privateKey) throw new Error('no anvil key');
    const account = privateKeyToAccount(privateKey);
    const opened = await e2e.open({ locale, wallet: { chainId: TEST_NODE_CHAIN_ID, privateKeys: [privateKey], rpcUrl: node().node.url }, signedIn: {} });
    const { page, token: memberToken = '' } = opened;
    await node().fund(account.address, '100');
    // Credit comes in from the wallet: 25 to the treasury, credited at its depth.
    await node().transfer(account, '25');
    await node().mine(2);
    const balanceOf = () => node().chain.client.readContract({ address: node().token, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] });
    const before = await balanceOf();

    // Credited once its blocks are on top and the watcher's round ran (asked over HTTP until it is): then Me shows it.
    const creditBalance = async () => (await memberCall<{ creditBalance: string }>(e2e, memberToken, '/api/member/meInfo')).creditBalance;
    await expect.poll(creditBalance, { timeout: 30_000, interval: 250 }).toBe('25');
    await page.goto('/me?sheet=withdraw');
    await expect.poll(() => page.locator('main').textContent(), { timeout: 10_000 }).toContain('25.00');
    const sheet = page.getByRole('dialog', { name: t('credit:withdraw.title') });
    const amount = sheet.getByLabel(t('credit:withdraw.amount.label'));
    await amount.waitFor({ timeout: 15_000 });
    await expect.poll(() => sheet.getByText(/25\.00/).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await amount.fill('12.5');
    await sheet.getByRole('button', { name: t('credit:withdraw.next') }).click();
    await sheet.getByRole('button', { name: t('credit:withdraw.confirm.submit') }).click();
    await sheet.getByText(t('credit:withdraw.done.title')).waitFor({ timeout: 15_000 });
    expect(await sheet.getByRole('note').textContent()).toBe(t('credit:withdraw.done.next.payment'));
    expect(await sheet.getByText(t('credit:records.withdrawalStatus.approved')).count()).toBeGreaterThan(0);
    await screenshot(page, `withdraw-chain-1-approved.${lng}`);

    // The payer sends it (the node mines it at once); two blocks on top and it is paid.
    await expect.poll(async () => (await balanceOf()) - before, { timeout: 15_000, interval: 250 }).toBe(parseUnits('11.5', 6));
    // Paid to the wallet, which does not list the token yet: the receipt adds it.
    const token = sheet.getByRole('region', { name: t('credit:token.title', { symbol: 'tUSD' }) });
    await token.getByRole('button', { name: t('credit:token.add', { symbol: 'tUSD' }) }).click();
    await token.getByRole('status').filter({ hasText: t('credit:token.added', { symbol: 'tUSD' }) }).waitFor();
    expect(opened.wallet?.watchedAssets.map((asset) => asset.symbol)).toEqual(['tUSD']);
    await node().mine(2);
    // Done once the payment is deep enough and the payer's round ran (asked over HTTP until it is): then the records show it.
    const latestStatus = async () => (await memberCall<{ list: { status: string }[] }>(e2e, memberToken, '/api/member/creditRecord')).list[0]?.status;
    await expect.poll(latestStatus, { timeout: 20_000, interval: 250 }).toBe('done');
    await sheet.getByRole('button', { name: t('credit:withdraw.done.records') }).click();
    await page.waitForURL('**/me/credit-records');
    const first = page.locator('.credit-records .adm-list-item').first();
    await expect.poll(() => first.textContent(), { timeout: 10_000 }).toContain(t('credit:records.withdrawalStatus.done'));
    expect(await first.textContent()).toContain('-12.50');
    const link = first.getByRole('link');
    expect(await link.getAttribute('href')).toMatch(/^https:\/\/explorer\.example\/tx\/0x[0-9a-f]{64}$/);
    await screenshot(page, `withdraw-chain-2-paid.${lng}`);
    // Paid once: still 11.5 more after the post.
    expect((await balanceOf()) - before).toBe(parseUnits('11.5', 6));
  });
});
