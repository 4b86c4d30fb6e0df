/**
 * The WPOS area end to end in Debian Chromium against the real server with the operator API on, with two
 * test wallets: A signs in, B signs in through A's invite link (so B is in A's team; both over HTTP, the sign-in
 * screens are journeys.spec.ts's subject); the operator grants A WPOS;
 * A transfers WPOS to B through the sheet, picking B from the team list, and B sees it on opening the app; A exchanges
 * WPOS to credit and sees both balances change; the operator runs the share-pool payout and both see their profit;
 * an address pasted from outside the team is refused before any request. Each phone loads the app once and goes on
 * through its own links and buttons. With E2E_SCREENSHOTS=1 each step is saved under
 * test-results/screenshots/wpos-*.png.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { setupJourneys } from './support/journey';
import { treasuryCall } from './support/operator';
import { anvilKeys } from './support/wallet/anvilKeys';

const e2e = setupJourneys({ treasury: true });
const treasury = <T,>(path: string, body: unknown) => treasuryCall<T>(e2e, path, body);

/** The balances /me/wpos shows, e.g. ["70.00 WPOS", "0.00 CREDIT"]. */
async function balances(page: Page): Promise<string[]> {
  return page.getByRole('region', { name: 'Balances' }).locator('dd').allTextContents();
}

/** The WPOS records' rows as the member reads them, newest first. */
async function recordRows(page: Page): Promise<string[]> {
  return page.locator('.wpos-records .adm-list-item').allTextContents();
}

describe('WPOS', () => {
  it('A transfers to B, exchanges to credit, both get their share-pool profit; a stranger is refused before any request', async () => {
    const a = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[7]] }, signedIn: {} });
    if (!a.wallet) throw new Error('this journey needs two test wallets');
    // Granted before A's page loads: the app reads A's balances once, at the load.
    const grant = await treasury<{ balanceAfter: string }>('/api/admin/grant', { address: a.wallet.address, asset: 'WPOS', amount: '100', requestId: randomUUID() });
    expect(grant).toMatchObject({ code: 0, result: { balanceAfter: '100' } });
    await a.page.goto('/me');
    const inviteCode = (await a.page.getByTestId('me-invite-code').textContent()) ?? '';
    const b = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[8]] }, signedIn: { inviteCode } });
    if (!b.wallet) throw new Error('this journey needs two test wallets');

    // A transfers 10 WPOS to B, picked from the team list.
    await a.page.getByRole('link', { name: 'WPOS', exact: true }).click();
    await expect.poll(() => balances(a.page), { timeout: 10_000 }).toEqual(['100.00 WPOS', '0.00 CREDIT']);
    await a.page.getByRole('region', { name: 'Share pools' }).getByRole('listitem').first().waitFor();
    await screenshot(a.page, 'wpos-1-a-granted');
    await a.page.getByRole('navigation', { name: 'WPOS actions' }).getByRole('button', { name: 'Transfer' }).click();
    const transfer = a.page.getByRole('dialog', { name: 'Transfer WPOS' });
    await transfer.getByRole('region', { name: 'Team members' }).getByRole('button').first().click();
    expect((await transfer.getByLabel('Recipient address').inputValue()).toLowerCase()).toBe(b.wallet.address.toLowerCase());
    await transfer.getByLabel('Amount (WPOS)').fill('10');
    await screenshot(a.page, 'wpos-2-transfer-form');
    await transfer.getByRole('button', { name: 'Next' }).click();
    await transfer.getByRole('button', { name: 'Confirm transfer' }).waitFor();
    await screenshot(a.page, 'wpos-3-transfer-summary');
    await transfer.getByRole('button', { name: 'Confirm transfer' }).click();
    await transfer.getByText('Transfer done').waitFor();
    await screenshot(a.page, 'wpos-4-transfer-done');
    await transfer.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => balances(a.page), { timeout: 10_000 }).toEqual(['90.00 WPOS', '0.00 CREDIT']);

    // B sees it on opening the app (a page load after the transfer), from A.
    await b.page.goto('/me/wpos');
    await expect.poll(() => balances(b.page), { timeout: 10_000 }).toEqual(['10.00 WPOS', '0.00 CREDIT']);
    await expect.poll(() => recordRows(b.page), { timeout: 10_000 }).toHaveLength(1);
    expect((await recordRows(b.page))[0]).toMatch(new RegExp(`^TransferFrom ${a.wallet.address.slice(0, 6)}…${a.wallet.address.slice(-4)} · Balance 10\\.00 · .*\\+10\\.00$`));
    await screenshot(b.page, 'wpos-5-b-received');

    // A exchanges 20 WPOS to credit at the seeded rate (0.5 CREDIT per WPOS).
    await a.page.getByRole('navigation', { name: 'WPOS actions' }).getByRole('button', { name: 'Exchange' }).click();
    const exchange = a.page.getByRole('dialog', { name: 'Flash exchange' });
    await exchange.getByLabel('You pay (WPOS)').fill('20');
    await expect.poll(() => exchange.getByText('You receive').locator('xpath=following-sibling::dd').textContent()).toBe('10.00 CREDIT');
    await screenshot(a.page, 'wpos-6-exchange-form');
    await exchange.getByRole('button', { name: 'Next' }).click();
    await exchange.getByRole('button', { name: 'Confirm exchange' }).click();
    await exchange.getByText('Exchange done').waitFor();
    await screenshot(a.page, 'wpos-7-exchange-done');
    await exchange.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => balances(a.page), { timeout: 10_000 }).toEqual(['70.00 WPOS', '10.00 CREDIT']);

    // The operator runs today's payout: both hold at least the lowest pool's minimum, so both get profit.
    const distributed = await treasury<{ pools: number; paid: string }>('/api/admin/distribute', {});
    expect(distributed.code).toBe(0);
    expect(distributed.result?.pools).toBeGreaterThan(0);
    for (const [member, name] of [
      [a.page, 'a'],
      [b.page, 'b'],
    ] as const) {
      await member.getByRole('navigation', { name: 'WPOS actions' }).getByRole('link', { name: 'Profit', exact: true }).click();
      await expect.poll(() => member.locator('.credit-records .adm-list-item').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      expect(await member.getByText('Total profit').locator('xpath=following-sibling::dd').textContent()).not.toBe('0.00 WPOS');
      await screenshot(member, `wpos-8-${name}-profit`);
    }

    // A pasted address outside the team is refused as typed; no transfer request goes out.
    await a.page.goBack();
    await a.page.getByRole('navigation', { name: 'WPOS actions' }).getByRole('button', { name: 'Transfer' }).click();
    const sheet = a.page.getByRole('dialog', { name: 'Transfer WPOS' });
    const sent: string[] = [];
    a.page.on('request', (request) => {
      if (request.url().endsWith('/api/member/transferWpos')) sent.push(request.url());
    });
    await sheet.getByLabel('Recipient address').fill('0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB');
    await sheet.getByLabel('Amount (WPOS)').fill('1');
    await sheet.getByText('You can only transfer to members of your team.').waitFor();
    expect(await sheet.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await screenshot(a.page, 'wpos-9-stranger-refused');
    expect(sent).toEqual([]);
    expect([...a.problems.errors, ...b.problems.errors]).toEqual([]);
  });
});
