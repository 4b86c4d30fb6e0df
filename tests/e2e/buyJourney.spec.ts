/**
 * The buy flow end to end in Debian Chromium against the real server with the operator API on: A signs in
 * (over HTTP, as B does: the sign-in screens are journeys.spec.ts's subject) and is granted credit, opens goods, has no address yet, adds one (the region from the picker) and comes back to
 * settlement with it chosen, pays, finds the order listed and the balance reduced; edits the address and the order
 * still shows the old one; the next settlement preselects the default. B, another member, opening A's address edit
 * page reads "not found". A's page is loaded once and goes on through the app's own tabs and buttons. With E2E_SCREENSHOTS=1 each step is saved under test-results/screenshots/buy-*.png.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { setupJourneys } from './support/journey';
import { treasuryCall } from './support/operator';
import { anvilKeys } from './support/wallet/anvilKeys';

const e2e = setupJourneys({ treasury: true });

/** A tab of the app's tab bar (Home, Team, Shop, Me). */
const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/** The shop's choice between its goods and the member's orders. */
const shopShows = (page: Page, name: 'Goods' | 'My orders') => page.getByRole('group', { name: 'Show' }).getByRole('button', { name, exact: true });

/** The orders tab's rows as the member reads them. */
async function orderRows(page: Page): Promise<string[]> {
  return page.locator('.orders .adm-list-item').allTextContents();
}

/** The figure beside a summary label on the settlement page ("Total", "Your credit"). */
async function figure(page: Page, label: string): Promise<string | null> {
  return page.getByText(label, { exact: true }).locator('xpath=following-sibling::dd').textContent();
}

describe('buy', () => {
  it('adds an address on the way, pays once, keeps the address on the order, preselects the default; another member cannot open it', async () => {
    const a = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[7]] }, signedIn: {} });
    const b = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[8]] }, signedIn: {} });
    if (!a.wallet || !b.wallet) throw new Error('this journey needs two test wallets');
    const grant = await treasuryCall<{ balanceAfter: string }>(e2e, '/api/admin/grant', { address: a.wallet.address, asset: 'CREDIT', amount: '500', requestId: randomUUID() });
    expect(grant).toMatchObject({ code: 0, result: { balanceAfter: '500' } });

    // The shop: A picks the tea.
    await a.page.goto('/buy-list');
    const tea = a.page.getByRole('listitem').filter({ hasText: 'West Lake Longjing tea' });
    await tea.getByText('500 in stock').waitFor();
    await screenshot(a.page, 'buy-1-shop');
    await tea.getByRole('button', { name: 'Buy' }).click();
    await a.page.waitForURL('**/buy/settlement/longjing-tea');
    await a.page.getByText('No shipping address yet.').waitFor();
    expect(await a.page.getByRole('button', { name: 'Pay' }).isDisabled()).toBe(true);
    await screenshot(a.page, 'buy-2-settlement-no-address');

    // No address yet: add one, every field checked, the region from the picker.
    await a.page.getByRole('button', { name: 'Add an address' }).click();
    await a.page.getByRole('heading', { name: 'New address' }).waitFor();
    await a.page.getByRole('button', { name: 'Save' }).click();
    await a.page.getByText('Enter the Recipient').waitFor();
    await a.page.getByLabel('Recipient', { exact: true }).fill('Li Lei');
    await a.page.getByLabel('Mobile number', { exact: true }).fill('138 0013');
    await a.page.getByLabel('Mobile number', { exact: true }).blur();
    await a.page.getByText('Not a valid mobile number').waitFor();
    await a.page.getByLabel('Mobile number', { exact: true }).fill('138 0013 8000');
    expect(await a.page.getByLabel('Mobile number', { exact: true }).getAttribute('inputmode')).toBe('tel');
    await a.page.getByRole('button', { name: /Region/ }).click();
    for (const place of ['浙江省', '杭州市', '西湖区']) await a.page.getByText(place, { exact: true }).click();
    await screenshot(a.page, 'buy-3-region-picker');
    await a.page.getByText('OK', { exact: true }).click();
    await a.page.getByLabel('Street and number', { exact: true }).fill('Wensan Road 100');
    await screenshot(a.page, 'buy-4-address-form');
    await a.page.getByRole('button', { name: 'Save' }).click();

    // Back to settlement with it chosen: two units, pay.
    await a.page.waitForURL('**/buy/settlement/longjing-tea?deliveryId=*');
    await expect.poll(() => a.page.getByTestId('settlement-address').textContent(), { timeout: 10_000 }).toContain('浙江省 / 杭州市 / 西湖区 Wensan Road 100');
    await a.page.getByRole('button', { name: 'One more' }).click();
    await expect.poll(() => figure(a.page, 'Total')).toBe('176.00 CREDIT');
    expect(await figure(a.page, 'Your credit')).toBe('500.00 CREDIT');
    await screenshot(a.page, 'buy-5-settlement-ready');
    await a.page.getByRole('button', { name: 'Pay' }).click();
    await a.page.getByRole('status').filter({ hasText: 'Paid' }).waitFor({ timeout: 15_000 });
    await screenshot(a.page, 'buy-6-paid');

    // The order is listed with its address.
    await a.page.getByRole('button', { name: 'See my orders' }).click();
    await expect.poll(() => orderRows(a.page), { timeout: 10_000 }).toHaveLength(1);
    expect((await orderRows(a.page))[0]).toMatch(/^West Lake Longjing tea, 250 g × 2.*Li Lei 138 0013 8000 · 浙江省 \/ 杭州市 \/ 西湖区 Wensan Road 100.*176\.00 CREDIT.*Paid/);
    await screenshot(a.page, 'buy-7-orders');

    // A edits the address (from Me's menu); the order keeps the old one.
    await tab(a.page, 'Me').click();
    await a.page.getByRole('link', { name: 'Shipping addresses', exact: true }).click();
    await a.page.getByRole('button', { name: 'Edit' }).click();
    await a.page.waitForURL('**/buy/shipping-address/edit/*');
    const editPath = new URL(a.page.url()).pathname;
    await a.page.getByLabel('Street and number', { exact: true }).fill('Moved to Tianmushan Road 8');
    await a.page.getByRole('button', { name: 'Save' }).click();
    await a.page.waitForURL('**/buy/shipping-address');
    await a.page.getByText('Moved to Tianmushan Road 8').waitFor();
    await screenshot(a.page, 'buy-8-address-book');
    await tab(a.page, 'Shop').click();
    await shopShows(a.page, 'My orders').click();
    await expect.poll(() => orderRows(a.page), { timeout: 10_000 }).toHaveLength(1);
    expect((await orderRows(a.page))[0]).toContain('Wensan Road 100');

    // The next settlement preselects the default, and the balance is what is left.
    await shopShows(a.page, 'Goods').click();
    await a.page.getByRole('listitem').filter({ hasText: 'Wildflower honey' }).getByRole('button', { name: 'Buy' }).click();
    await a.page.waitForURL('**/buy/settlement/wildflower-honey');
    await expect.poll(() => a.page.getByTestId('settlement-address').textContent(), { timeout: 10_000 }).toContain('Moved to Tianmushan Road 8');
    expect(await figure(a.page, 'Your credit')).toBe('324.00 CREDIT');
    await screenshot(a.page, 'buy-9-next-settlement');

    // B cannot open A's address.
    await b.page.goto(editPath);
    await b.page.getByText('Address not found').waitFor();
    await screenshot(b.page, 'buy-10-other-member-not-found');
  });
});
