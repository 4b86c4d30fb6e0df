/**
 * Withdrawing credit end to end in Debian Chromium against the real server with the operator API on: a
 * member signs in (over HTTP: the sign-in screens are journeys.spec.ts's subject), the operator grants credit (POST /api/admin/grant), the member withdraws through the sheet over
 * /me, sees the pending record and the new balance, reloads and still sees them; the operator marks the withdrawal
 * failed (POST /api/admin/withdrawal/decide) and the member sees the refund. With E2E_SCREENSHOTS=1 each step is saved under
 * test-results/screenshots/credit-*.png.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { setupJourneys } from './support/journey';
import { treasuryCall, type Envelope } from './support/operator';
import { anvilKeys } from './support/wallet/anvilKeys';

const e2e = setupJourneys({ treasury: true });
const treasury = <T,>(path: string, body: unknown) => treasuryCall<T>(e2e, path, body);

/** The credit balance /me shows, e.g. "100.00 CREDIT". */
async function creditOnMe(page: Page): Promise<string | null> {
  return page.getByRole('region', { name: 'Balances' }).locator('dd').first().textContent();
}

/** The Me tab of the app's tab bar. */
const meTab = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Me', exact: true });

/** The records' rows as the member reads them, newest first. */
async function recordRows(page: Page): Promise<string[]> {
  return page.locator('.credit-records .adm-list-item').allTextContents();
}

describe('credit withdrawal', () => {
  it('grant, withdraw, pending record and balance across a reload, then the operator fails it and the member sees the refund', async () => {
    const opened = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[6]] }, signedIn: {} });
    const { page, problems } = opened;
    const wallet = opened.wallet;
    if (!wallet) throw new Error('this journey needs the test wallet');

    const grant = await treasury<{ id: string; balanceAfter: string }>('/api/admin/grant', {
      address: wallet.address,
      asset: 'CREDIT',
      amount: '100',
      requestId: randomUUID(),
      memo: 'e2e',
    });
    expect(grant).toMatchObject({ code: 0, result: { balanceAfter: '100' } });

    await page.goto('/me');
    await expect.poll(() => creditOnMe(page), { timeout: 10_000 }).toBe('100.00 CREDIT');
    await screenshot(page, 'credit-1-granted');

    // The sheet is a native modal dialog: focus moves to the start of its content, Escape and a tap on the backdrop
    // close it (the URL loses ?sheet=withdraw) and focus goes back to the Withdraw button.
    const withdrawButton = page.getByRole('button', { name: 'Withdraw', exact: true });
    const sheet = page.getByRole('dialog', { name: 'Withdraw credit' });
    const focused = () => page.evaluate(() => `${document.activeElement?.className ?? ''} ${document.activeElement?.textContent ?? ''}`);
    for (const close of [() => page.keyboard.press('Escape'), () => page.mouse.click(187, 40)]) {
      await withdrawButton.click();
      await page.waitForURL('**/me?sheet=withdraw');
      await sheet.waitFor();
      await expect.poll(focused).toMatch(/^sheet-content Withdraw credit/);
      await close();
      await page.waitForURL((url) => url.pathname === '/me' && url.search === '');
      await sheet.waitFor({ state: 'detached' });
      await expect.poll(focused).toMatch(/credit-entry .*Withdraw$/);
    }

    await withdrawButton.click();
    await page.waitForURL('**/me?sheet=withdraw');
    await sheet.waitFor();
    await sheet.getByLabel('Amount (CREDIT)').fill('12.5');
    await expect.poll(() => sheet.getByText('You receive').locator('xpath=following-sibling::dd').textContent()).toBe('11.50 CREDIT');
    await screenshot(page, 'credit-2-amount');
    await sheet.getByRole('button', { name: 'Next' }).click();
    await sheet.getByRole('button', { name: 'Confirm withdrawal' }).waitFor();
    await screenshot(page, 'credit-3-summary');

    const answered = page.waitForResponse((response) => response.url().endsWith('/api/member/withdrawCredit'));
    await sheet.getByRole('button', { name: 'Confirm withdrawal' }).click();
    const withdrawal = (await (await answered).json()) as Envelope<{ id: string; amount: string; fee: string; status: string }>;
    expect(withdrawal).toMatchObject({ code: 0, result: { amount: '12.5', fee: '1', status: 'pending' } });
    const request = (await answered).request().postDataJSON() as { amount: string; requestId: string };
    expect(request).toEqual({ amount: '12.5', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await sheet.getByText('Withdrawal submitted').waitFor();
    await screenshot(page, 'credit-4-submitted');

    await sheet.getByRole('button', { name: 'View records' }).click();
    await page.waitForURL('**/me/credit-records');
    // Each record shows its date and time on the member's clock (the page's zone), e.g. "Nov 27, 2026, 07:30".
    const today = escapeRegExp(await todayInEnglish(page));
    await expect.poll(() => recordRows(page), { timeout: 10_000 }).toEqual([
      expect.stringMatching(new RegExp(`^WithdrawalBalance 87\\.50 · ${today}, \\d{2}:\\d{2}-12\\.50Waiting for approval$`)),
      expect.stringMatching(new RegExp(`^RewardBalance 100\\.00 · ${today}, \\d{2}:\\d{2}\\+100\\.00Done$`)),
    ]);
    await screenshot(page, 'credit-5-pending-record');

    await page.reload();
    await expect.poll(() => recordRows(page), { timeout: 10_000 }).toHaveLength(2);
    expect((await recordRows(page))[0]).toContain('-12.50Waiting for approval');
    // Through the app's own tabs and links from here, up to the refund.
    await meTab(page).click();
    await expect.poll(() => creditOnMe(page), { timeout: 10_000 }).toBe('87.50 CREDIT');
    await screenshot(page, 'credit-6-balance-after-reload');

    const id = withdrawal.result?.id ?? '';
    const decided = await treasury<{ status: string }>('/api/admin/withdrawal/decide', { id, status: 'failed' });
    expect(decided).toMatchObject({ code: 0, result: { status: 'failed' } });

    await page.getByRole('link', { name: 'Credit records', exact: true }).click();
    await expect.poll(() => recordRows(page), { timeout: 10_000 }).toHaveLength(3);
    const rows = await recordRows(page);
    expect(rows[0]).toMatch(/^WithdrawalBalance 100\.00 · .*\+12\.50Done$/);
    expect(rows[1]).toMatch(/^WithdrawalBalance 87\.50 · .*Refused by an operator; the amount is back in your balance\.-12\.50Failed, refunded$/);
    await screenshot(page, 'credit-7-refunded');

    await page.getByRole('group', { name: 'Record type' }).getByRole('button', { name: 'Reward' }).click();
    await expect.poll(() => recordRows(page), { timeout: 10_000 }).toHaveLength(1);
    // A page load: Me reached by its tab still shows the balance read before the refund (87.50).
    await page.goto('/me');
    await expect.poll(() => creditOnMe(page), { timeout: 10_000 }).toBe('100.00 CREDIT');
    await screenshot(page, 'credit-8-balance-refunded');
    expect(problems.errors).toEqual([]);
  });
});

/** Today's date as the records show it in English (the page's own zone, medium style), before the time. */
function todayInEnglish(page: Page): Promise<string> {
  return page.evaluate(() => new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date()));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
