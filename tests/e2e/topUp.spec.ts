/**
 * Money in end to end in Debian Chromium against the real server with a real chain: anvil with the token,
 * the server's top-up watcher on it, and the test wallet holding its key in Node, reading from the node and signing
 * and sending the transfer there. A member tops up from the sheet over /me and sees the credit arrive with its
 * record; refuses in the wallet and sees why, the amount kept; reloads while the transfer confirms and the sheet
 * resumes it, sent once; speeds the transfer up in the wallet and the sheet follows the new transaction; adds the
 * token to the wallet from the receipt (wallet_watchAsset), and meets a wallet that refuses (4001) or cannot
 * (4200). Each journey runs in en or zh, the two taking turns. With E2E_SCREENSHOTS=1 each step is saved under
 * test-results/screenshots/top-up-*.png.
 */
import { describe, expect, it } from 'vitest';
import { createWalletClient, erc20Abi, http, parseUnits, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { screenshot } from './support/browser';
import { setupJourneys } from './support/journey';
import type { Opened } from './support/journey';
import { translateWith } from './support/visual';
import type { Lng } from './support/visual';
import { TEST_NODE_CHAIN_ID } from '../server/support/testChain';
import { anvilKeys } from './support/wallet/anvilKeys';
import type { TestWallet } from './support/wallet/testWallet';

const e2e = setupJourneys({ chain: true });

const en = { lng: 'en', locale: 'en-US' } as const satisfies { lng: Lng; locale: string };
const zh = { lng: 'zh', locale: 'zh-CN' } as const satisfies { lng: Lng; locale: string };

const textsOf =
  (lng: Lng) =>
  (key: string, values: Record<string, string | number> = {}): string =>
    translateWith(lng, key, values);

function node() {
  const chain = e2e.server.chain;
  if (!chain) throw new Error('this file needs the server with a chain');
  return chain;
}

/**
 * A member with 100 of the token and gas in the wallet, signed in (over HTTP, bound to the invite code: the sign-in
 * screens are journeys.spec.ts's subject), on the phone whose wallet holds the key.
 */
async function signedInMember(locale: string, keyIndex: number): Promise<Opened & { wallet: TestWallet }> {
  const key = anvilKeys[keyIndex];
  if (!key) throw new Error('no anvil key');
  const opened = await e2e.open({ locale, wallet: { chainId: TEST_NODE_CHAIN_ID, privateKeys: [key], rpcUrl: node().node.url }, signedIn: {} });
  const wallet = opened.wallet;
  if (!wallet) throw new Error('this journey needs the test wallet');
  await node().fund(wallet.address, '100');
  return { ...opened, wallet };
}

// Each journey runs in one language, the two taking turns: the journeys test the money and the wallet; every screen
// they pass is checked in both languages by the visual check (tests/e2e/visual.{zh,en}.spec.ts).
describe('top-up from the wallet', () => {
  it('tops up 25 from the sheet over /me: the wallet sends it, the blocks on top, credited, the record and balance (en)', async () => {
    const { lng, locale } = en;
    const t = textsOf(lng);
    const { page, wallet } = await signedInMember(locale, 6);
    await page.goto('/me');
    await page.getByRole('button', { name: t('me:credit.topUp'), exact: true }).click();
    const sheet = page.getByRole('dialog', { name: t('credit:topUp.title') });
    const amount = sheet.getByLabel(t('credit:topUp.amount.label', { symbol: 'tUSD' }));
    await amount.waitFor({ timeout: 15_000 });
    await expect.poll(() => sheet.getByText(/100\.00/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await amount.fill('25');
    await screenshot(page, `top-up-1-amount.${lng}`);
    await sheet.getByRole('button', { name: t('credit:topUp.submit') }).click();
    await sheet.getByText(t('credit:topUp.confirming.progress', { confirmations: 0, required: 2 })).or(sheet.getByText(t('credit:topUp.confirming.sent'))).first().waitFor({ timeout: 15_000 });
    await screenshot(page, `top-up-2-confirming.${lng}`);
    expect(wallet.requestsOf('eth_sendTransaction').map((request) => request.answer.ok)).toEqual([true]);
    await node().mine(2);
    await sheet.getByText(t('credit:topUp.credited.title')).waitFor({ timeout: 15_000 });
    await screenshot(page, `top-up-3-credited.${lng}`);
    // On chain the treasury holds what the member sent; the ledger credited it once.
    const treasury = await node().chain.client.readContract({ address: node().token, abi: erc20Abi, functionName: 'balanceOf', args: [node().treasury] });
    expect(treasury).toBeGreaterThanOrEqual(parseUnits('25', 6));
    // The wallet does not list the token yet: the receipt shows where the money went and adds the token.
    const token = sheet.getByRole('region', { name: t('credit:token.title', { symbol: 'tUSD' }) });
    const href = async (name: string) => (await token.getByRole('link', { name }).getAttribute('href'))?.toLowerCase();
    expect(await href(t('credit:token.treasury'))).toBe(`https://explorer.example/address/${node().treasury.toLowerCase()}`);
    expect(await href(t('credit:token.contract', { symbol: 'tUSD' }))).toBe(`https://explorer.example/address/${node().token.toLowerCase()}`);
    await token.getByRole('button', { name: t('credit:token.add', { symbol: 'tUSD' }) }).click();
    await token.getByRole('status').filter({ hasText: t('credit:token.added', { symbol: 'tUSD' }) }).waitFor();
    expect(wallet.watchedAssets.map((asset) => ({ ...asset, address: asset.address.toLowerCase() }))).toEqual([{ address: node().token.toLowerCase(), symbol: 'tUSD', decimals: 6 }]);
    await sheet.getByRole('button', { name: t('credit:topUp.credited.records') }).click();
    await page.waitForURL('**/me/credit-records');
    await expect.poll(() => page.locator('.credit-records .adm-list-item').first().textContent(), { timeout: 10_000 }).toContain('+25.00');
    expect(await page.locator('.credit-records .adm-list-item').first().textContent()).toContain(t('credit:records.type.topUp'));
  });

  it('shows a refusal in the wallet with the amount kept, then resumes a top-up after a reload while it confirms (zh)', async () => {
    const { lng, locale } = zh;
    const t = textsOf(lng);
    const { page, wallet } = await signedInMember(locale, 9);
    await page.goto('/me?sheet=topUp');
    const sheet = page.getByRole('dialog', { name: t('credit:topUp.title') });
    const amount = sheet.getByLabel(t('credit:topUp.amount.label', { symbol: 'tUSD' }));
    await amount.waitFor({ timeout: 15_000 });
    await amount.fill('12.5');
    wallet.rejectNext('eth_sendTransaction');
    await sheet.getByRole('button', { name: t('credit:topUp.submit') }).click();
    await sheet.getByText(t('common:wallet.errors.UserRejectedError')).waitFor({ timeout: 10_000 });
    await screenshot(page, `top-up-4-refused.${lng}`);
    expect(await amount.inputValue()).toBe('12.5');

    await sheet.getByRole('button', { name: t('credit:topUp.submit') }).click();
    await sheet.getByText(t('credit:topUp.confirming.detail')).waitFor({ timeout: 15_000 });
    // The member reloads (or closes the tab and comes back): the kept hash is followed again, nothing is resent.
    await page.reload();
    const resumed = page.getByRole('dialog', { name: t('credit:topUp.title') });
    await resumed.getByText(t('credit:topUp.confirming.detail')).waitFor({ timeout: 15_000 });
    await screenshot(page, `top-up-5-resumed.${lng}`);
    await node().mine(2);
    await resumed.getByText(t('credit:topUp.credited.title')).waitFor({ timeout: 15_000 });
    await screenshot(page, `top-up-6-credited.${lng}`);
    expect(wallet.requestsOf('eth_sendTransaction').map((request) => request.answer.ok)).toEqual([false, true]);
    expect(await page.evaluate(() => window.localStorage.getItem('PENDING_TOP_UP'))).toBeNull();

    // Adding the token: the member says no in the wallet, then the wallet turns out not to support it at all.
    const token = resumed.getByRole('region', { name: t('credit:token.title', { symbol: 'tUSD' }) });
    const add = token.getByRole('button', { name: t('credit:token.add', { symbol: 'tUSD' }) });
    wallet.rejectNext('wallet_watchAsset');
    await add.click();
    await token.getByRole('alert').filter({ hasText: t('credit:token.declined', { symbol: 'tUSD' }) }).waitFor();
    wallet.failAlways('wallet_watchAsset', { code: 4200, message: 'The Provider does not support the requested method.' });
    await add.click();
    await token.getByRole('alert').filter({ hasText: t('credit:token.unsupported', { symbol: 'tUSD' }) }).waitFor();
    expect(await add.count()).toBe(0);
    expect(wallet.watchedAssets).toEqual([]);
    // Nothing else broke: the receipt is still there and the sheet closes.
    await resumed.getByText(t('credit:topUp.credited.title')).waitFor();
  });

  it('follows a transfer the member sped up in the wallet to its new transaction, and credits it once (en)', async () => {
    const { lng, locale } = en;
    const t = textsOf(lng);
    const key = anvilKeys[5];
    if (!key) throw new Error('no anvil key');
    const { page, wallet } = await signedInMember(locale, 5);
    await page.goto('/me?sheet=topUp');
    const sheet = page.getByRole('dialog', { name: t('credit:topUp.title') });
    const amount = sheet.getByLabel(t('credit:topUp.amount.label', { symbol: 'tUSD' }));
    await amount.waitFor({ timeout: 15_000 });
    // Blocks only when the test mines them: the transfer waits in the node's pool, where the wallet can replace it.
    await node().rpc('evm_setAutomine', [false]);
    try {
      await amount.fill('9');
      await sheet.getByRole('button', { name: t('credit:topUp.submit') }).click();
      await sheet.getByText(t('credit:topUp.confirming.detail')).waitFor({ timeout: 15_000 });
      const original = wallet.requestsOf('eth_sendTransaction')[0]?.answer;
      if (!original?.ok) throw new Error('the wallet sent nothing');
      const originalHash = original.result as Hex;
      // Seen pending by the page's watch first, as a wallet's own pending list would show it: the watch has read the
      // transaction (its nonce) through the wallet. Waited for, where a 2 s sleep stood.
      await expect
        .poll(() => wallet.requestsOf('eth_getTransactionByHash').some(({ params, answer }) => Array.isArray(params) && params[0] === originalHash && answer.ok && answer.result !== null), {
          timeout: 15_000,
        })
        .toBe(true);
      // The member speeds it up in the wallet: the same transfer and nonce with a higher fee.
      const pending = await node().chain.client.getTransaction({ hash: originalHash });
      const speedUp = createWalletClient({ account: privateKeyToAccount(key), transport: http(node().node.url) });
      const spedUpHash = await speedUp.sendTransaction({
        chain: null,
        to: pending.to ?? undefined,
        data: pending.input,
        nonce: pending.nonce,
        gas: pending.gas,
        maxFeePerGas: (pending.maxFeePerGas ?? 0n) * 2n + 1n,
        maxPriorityFeePerGas: (pending.maxPriorityFeePerGas ?? 0n) * 2n + 1n,
      });
      expect(spedUpHash).not.toBe(originalHash);
      await node().mine(1);
      // The sheet now follows the sped-up transaction.
      await expect.poll(() => sheet.getByRole('link', { name: new RegExp(spedUpHash) }).count(), { timeout: 20_000 }).toBe(1);
      await screenshot(page, `top-up-7-sped-up.${lng}`);
      await node().mine(2);
      await sheet.getByText(t('credit:topUp.credited.title')).waitFor({ timeout: 20_000 });
      expect(await sheet.getByText(/9\.00/).count()).toBeGreaterThan(0);
    } finally {
      await node().rpc('evm_setAutomine', [true]);
    }
  });
});
