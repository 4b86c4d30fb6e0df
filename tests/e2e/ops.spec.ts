/**
 * The operators' desk end to end in Debian Chromium against the real server with a real chain (anvil,
 * the payer on it), withdrawals up to 10 CREDIT a day approved on request and two operators needed above 100
 * (APPROVAL_QUORUM_ABOVE). The demo operator of the seed (docs/operations.md, "Operators", anvil account 9) signs in
 * at /ops with a test wallet signing the desk's SIWE message with viem; a member's withdrawals of 50 and 150 wait in
 * the queue; the operator approves both, the second waits for a second approver, whom a second operator's wallet
 * signing in through the API gives; the payer pays both; the desk lists them paid with explorer links and the
 * member's credit records show them paid. A member's token opens none of the desk's calls: the desk shows its
 * sign-in. A member's paid order is shipped at /ops/orders with its carrier and tracking number, which the member's
 * order list then shows. A notice written in zh and en at /ops/content (its script left out by the sanitiser) is
 * published, and a member reads it in each language in the announcements. Ten members' 200 withdrawals are cleared at
 * 1280 px from the keyboard alone (j, Shift+X, a, Enter), a page of 100 at a time: a first finance operator approves
 * them all, those above what one approves alone then wait for a second, who clears what waits for them. The desk's
 * sign-in at /ops is walked by the approvals' journey; the others open the desk with an operator's session made over
 * HTTP. Members sign in over HTTP (their sign-in screens are journeys.spec.ts's subject).
 * With E2E_SCREENSHOTS=1, screens under test-results/screenshots/ops-*.png.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import { OPERATOR_SIGN_IN_STATEMENT } from '../../api-schema/ops';
import { DEMO_OPERATOR_KEY } from '../../server/ops/demoOperator';
import { TEST_NODE_CHAIN_ID } from '../server/support/testChain';
import { screenshot } from './support/browser';
import { memberCall, memberSessionOverHttp, setupJourneys } from './support/journey';
import { deskCookie, deskSessionOverHttp, envelopeCall, treasuryCall } from './support/operator';
import type { Envelope } from './support/operator';
import { translateWith } from './support/visual';
import { anvilKeys } from './support/wallet/anvilKeys';

const e2e = setupJourneys({ chain: true, treasury: true, demoOperator: true, autoApproveMax: '10', approvalQuorumAbove: '100' });

const t = (key: string, values: Record<string, string | number> = {}) => translateWith('en', key, values);

const memberKey = anvilKeys[4];
const secondOperatorKey = anvilKeys[8];
const buyerKey = anvilKeys[5];
const readerKey = anvilKeys[6];
const grantedKey = anvilKeys[7];
// Operators' wallets that are no anvil account's: they sign only the desk's message.
const firstFinanceKey = `0x${'f1'.repeat(32)}` as const;
const secondFinanceKey = `0x${'f2'.repeat(32)}` as const;

function node() {
  const chain = e2e.server.chain;
  if (!chain) throw new Error('this file needs the server with a chain');
  return chain;
}

const walletOn = (privateKey: `0x${string}`) => ({ chainId: TEST_NODE_CHAIN_ID, privateKeys: [privateKey], rpcUrl: node().node.url });

/** A call to the server with a credential's headers (a desk session's cookie and CSRF token, or a member's token to be refused). */
const call = <T>(path: string, headers: Record<string, string>, body?: unknown): Promise<Envelope<T>> => envelopeCall<T>(e2e.server.url, path, headers, body);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A queue row's button: its name is what it shows, the withdrawal's number first. */
const row = (queue: ReturnType<Page['getByRole']>, id: string) => queue.getByRole('button', { name: new RegExp(`^#${id} `) });

/** The desk's sign-in at /ops with the page's test wallet: connect, sign the desk's message, land on a screen. */
async function signInAtDesk(page: Page): Promise<void> {
  await page.goto('/ops');
  await page.getByRole('button', { name: t('common:wallet.actions.connect'), exact: true }).click();
  await page.getByRole('button', { name: t('ops:signIn.action'), exact: true }).click();
  await page.getByRole('navigation', { name: t('ops:shell.menu') }).waitFor();
}

/**
 * An operator's desk (the demo operator's unless said) at `path`, signed in over HTTP (the desk's sign-in at /ops is
 * this file's second journey): the desk starts with the session it keeps after a sign-in, the operator's wallet
 * connected. With the session's headers, for the calls a test makes beside the page.
 */
async function openDeskSignedIn(key: `0x${string}` = DEMO_OPERATOR_KEY, path = '/ops'): Promise<{ page: Page; headers: Record<string, string> }> {
  const desk = await deskSessionOverHttp(e2e, key);
  const { page } = await e2e.open({ wallet: { ...walletOn(key), connected: true }, cookies: [desk.cookie] });
  await page.goto(path);
  await page.getByRole('navigation', { name: t('ops:shell.menu') }).waitFor();
  return { page, headers: desk.headers };
}

describe('the operators desk', () => {
  it("a member's token opens none of the desk's calls: the desk shows its sign-in", async () => {
    // The member signed in (over HTTP: the member's sign-in screens are journeys.spec.ts's subject), the phone keeping
    // the member's session, the site connected in the wallet.
    const member = await memberSessionOverHttp(e2e.server, memberKey);
    const memberToken = member.token;
    expect(memberToken).not.toBe('');
    for (const path of ['/api/admin/me', '/api/admin/withdrawals?status=pending']) expect((await call(path, bearer(memberToken))).code, path).toBe(1002);
    // The member's token put where the desk's session goes (its cookie), and where earlier desks kept theirs: the desk
    // asks the server, which refuses it, clears the old key and asks for a sign-in.
    const { page } = await e2e.open({
      wallet: { ...walletOn(memberKey), connected: true },
      localStorage: { ...member.localStorage, OPS_TOKEN: JSON.stringify(memberToken) },
      cookies: [deskCookie(e2e.server.url, memberToken)],
    });
    await page.goto('/ops');
    // The wallet the member app connected stays connected: the desk offers its own sign-in.
    await page.getByRole('button', { name: t('ops:signIn.action'), exact: true }).waitFor();
    expect(await page.getByRole('navigation', { name: t('ops:shell.menu') }).count()).toBe(0);
    expect(await page.evaluate(() => window.localStorage.getItem('OPS_TOKEN'))).toBeNull();
    await screenshot(page, 'ops-1-member-token-sign-in');
  });

  it('approves two withdrawals above AUTO_APPROVE_MAX (one by a quorum of two); the payer pays both, seen paid by desk and member', async () => {
    const member = privateKeyToAccount(memberKey);
    // The member signs in over HTTP; the phone opens at the credit records at the end.
    const { page: memberPage, token: memberToken = '' } = await e2e.open({ wallet: walletOn(memberKey), signedIn: {} });
    // 300, in grants of 100: what one operator grants alone here (APPROVAL_QUORUM_ABOVE).
    for (let grant = 0; grant < 3; grant++) expect((await treasuryCall(e2e, '/api/admin/grant', { address: member.address, asset: 'CREDIT', amount: '100', requestId: randomUUID() })).code).toBe(0);
    const small = await memberCall<{ id: string; status: string }>(e2e, memberToken, '/api/member/withdrawCredit', { amount: '50', requestId: randomUUID() });
    const large = await memberCall<{ id: string; status: string }>(e2e, memberToken, '/api/member/withdrawCredit', { amount: '150', requestId: randomUUID() });
    expect([small.status, large.status]).toEqual(['pending', 'pending']);

    // The demo operator signs in at /ops with the test wallet (viem signs the desk's message in Node).
    const { page, wallet } = await e2e.open({ wallet: walletOn(DEMO_OPERATOR_KEY) });
    await signInAtDesk(page);
    expect(wallet?.signedMessages.at(-1)?.message).toContain(OPERATOR_SIGN_IN_STATEMENT);
    // The desk opens on its overview; its pending tile leads to the queue.
    await page.waitForURL('**/ops/overview');
    await page.getByRole('link', { name: new RegExp(t('ops:overview.pending')) }).click();
    await page.waitForURL('**/ops/withdrawals?status=pending');
    const queue = page.getByRole('list', { name: t('ops:withdrawals.queue') });
    await row(queue, small.id).waitFor();
    await row(queue, large.id).waitFor();
    await screenshot(page, 'ops-2-queue');

    // 50: one approval is enough; it goes to the payer.
    await row(queue, small.id).click();
    const detail = (id: string) => page.getByRole('article', { name: t('ops:withdrawals.detailTitle', { id }) });
    await detail(small.id).getByRole('button', { name: t('ops:withdrawals.approve'), exact: true }).click();
    await detail(small.id).getByRole('button', { name: t('ops:withdrawals.confirmApprove') }).click();
    await detail(small.id).getByText(t('ops:withdrawals.approvedWaitsPayer')).waitFor();

    // 150, above the quorum threshold: the first approval waits for a second, different approver.
    await row(queue, large.id).click();
    await detail(large.id).getByText(t('ops:withdrawals.quorum', { need: 2 })).waitFor();
    await detail(large.id).getByRole('button', { name: t('ops:withdrawals.approve'), exact: true }).click();
    await detail(large.id).getByRole('button', { name: t('ops:withdrawals.confirmApprove') }).click();
    await detail(large.id).getByText(t('ops:withdrawals.awaitingSecond', { have: 1, need: 2 })).waitFor();
    await screenshot(page, 'ops-3-awaiting-second');
    // The session is an HttpOnly cookie of /api/admin: the browser holds it, the page's scripts never see it.
    const [cookie] = (await page.context().cookies()).filter((kept) => kept.name === 'mdo_session');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/admin' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('mdo_session');
    expect(await page.evaluate(() => Object.keys(window.localStorage).filter((key) => key.startsWith('OPS_')))).toEqual([]);
    const sessionCookie = { Cookie: `mdo_session=${cookie?.value ?? ''}` };
    const me = await call<{ csrfToken: string }>('/api/admin/me', sessionCookie);
    const demo = { ...sessionCookie, 'X-CSRF-Token': me.result?.csrfToken ?? '' };
    // The same operator again counts once.
    const again = await call<{ status: string; waitsForSecondApproval?: boolean }>('/api/admin/withdrawal/decide', demo, { id: large.id, status: 'approved' });
    expect([again.code, again.result?.status, again.result?.waitsForSecondApproval]).toEqual([0, 'pending', true]);

    // The admin adds a second finance operator, whose own wallet signs in and gives the second approval.
    const second = privateKeyToAccount(secondOperatorKey);
    expect((await call('/api/admin/operators/put', demo, { address: second.address, roles: ['finance'] })).code).toBe(0);
    const { headers: secondOperator } = await deskSessionOverHttp(e2e, secondOperatorKey);
    const decided = await call<{ status: string }>('/api/admin/withdrawal/decide', secondOperator, { id: large.id, status: 'approved' });
    expect(decided.code).toBe(0);
    expect(decided.result?.status).toBe('approved');

    // The payer sends both; two blocks on top and they are paid (the node mines a payment at once).
    const paidIds = async () => {
      await node().mine(1);
      const paid = await call<{ list: { id: string; txHash?: string }[] }>('/api/admin/withdrawals?status=paid', demo);
      return (paid.result?.list ?? []).filter((item) => item.txHash).map((item) => item.id).sort();
    };
    await expect.poll(paidIds, { timeout: 30_000, interval: 250 }).toEqual([small.id, large.id].sort());

    // The desk lists them paid, each with its payment on the explorer.
    await page.getByRole('group', { name: t('ops:withdrawals.statusLabel') }).getByRole('button', { name: t('ops:withdrawals.status.paid'), exact: true }).click();
    for (const id of [large.id, small.id]) {
      await row(queue, id).click();
      const link = detail(id).getByRole('link', { name: new RegExp(t('ops:withdrawals.fields.payment')) });
      expect(await link.getAttribute('href')).toMatch(/^https:\/\/explorer\.example\/tx\/0x[0-9a-f]{64}$/);
    }
    await screenshot(page, 'ops-4-paid');

    // The member's credit records show both paid, linked to their transactions.
    await memberPage.goto('/me/credit-records');
    const rows = memberPage.locator('.credit-records .adm-list-item');
    const paidRows = async () => {
      const texts = await rows.allTextContents();
      return texts.filter((text) => text.includes(t('credit:records.withdrawalStatus.done'))).length;
    };
    // Read again (a reload) until both show paid; the desk saw them paid before the page opened, so once is the rule.
    let reads = 0;
    const paidAfterReload = async () => {
      if (reads++ > 0) await memberPage.reload();
      await rows.first().waitFor();
      return paidRows();
    };
    await expect.poll(paidAfterReload, { timeout: 15_000, interval: 500 }).toBe(2);
    for (const amount of ['-50.00', '-150.00']) {
      const record = rows.filter({ hasText: amount });
      expect(await record.getByRole('link').getAttribute('href')).toMatch(/^https:\/\/explorer\.example\/tx\/0x[0-9a-f]{64}$/);
    }
    await screenshot(memberPage, 'ops-5-member-paid');
  });
  it('a grant above what one operator grants alone: the first finance operator asks, cannot confirm it, and a second one confirms it', async () => {
    const member = privateKeyToAccount(grantedKey);
    const { token: memberToken } = await memberSessionOverHttp(e2e.server, grantedKey);
    // The demo admin adds two finance operators (the only admin's changes are done at once).
    const admin = (await deskSessionOverHttp(e2e, DEMO_OPERATOR_KEY)).headers;
    for (const key of [firstFinanceKey, secondFinanceKey]) {
      expect((await call('/api/admin/operators/put', admin, { address: privateKeyToAccount(key).address, roles: ['finance'] })).code).toBe(0);
    }
    const openDesk = async (key: `0x${string}`) => {
      const desk = await openDeskSignedIn(key, `/ops/members?q=${member.address}`);
      await desk.page.getByRole('heading', { name: t('ops:members.adjustTitle') }).waitFor();
      return desk;
    };
    // The first asks for 500 (above this server's 100 alone): nothing moves, it waits.
    const first = await openDesk(firstFinanceKey);
    const form = first.page.getByRole('region', { name: t('ops:members.adjustTitle') });
    await form.getByRole('textbox', { name: t('ops:members.amount'), exact: true }).fill('500');
    await form.getByRole('textbox', { name: t('ops:members.reason'), exact: true }).fill('campaign prize');
    await form.getByRole('button', { name: t('ops:members.grant'), exact: true }).click();
    const waiting = first.page.getByText(/waits for a second finance operator to confirm it/u);
    await waiting.waitFor();
    const id = /#(\d+)/u.exec((await waiting.textContent()) ?? '')?.[1] ?? '';
    expect(id).not.toBe('');
    // Its requester sees it as theirs (read again: the list was read as the screen opened), with no Confirm; the call
    // itself is refused (1007).
    const pendingCard = first.page.getByRole('region', { name: t('ops:members.pendingTitle') });
    await pendingCard.getByRole('button', { name: t('ops:actions.readAgain'), exact: true }).click();
    const pending = pendingCard.getByRole('list', { name: t('ops:members.pendingTitle') });
    await pending.getByText(t('ops:members.yours')).waitFor();
    expect(await pending.getByRole('button', { name: t('ops:members.confirmItem', { id }) }).count()).toBe(0);
    await screenshot(first.page, 'ops-grant-1-waiting');
    expect((await call('/api/admin/adjust/confirm', first.headers, { id })).code).toBe(1007);
    const meInfo = async () => (await memberCall<{ creditBalance: string }>(e2e, memberToken, '/api/member/meInfo')).creditBalance;
    expect(await meInfo()).toBe('0');
    // The second confirms it at the desk: the grant moves, once.
    const second = await openDesk(secondFinanceKey);
    await second.page.getByRole('list', { name: t('ops:members.pendingTitle') }).getByRole('button', { name: t('ops:members.confirmItem', { id }) }).click();
    await expect.poll(meInfo, { timeout: 10_000, interval: 250 }).toBe('500');
    await screenshot(second.page, 'ops-grant-2-confirmed');
    expect((await call<{ status: string }>('/api/admin/adjust/confirm', second.headers, { id })).result?.status).toBe('done');
    expect(await meInfo()).toBe('500');
  });

  it('ships a member\'s paid order at /ops/orders with carrier and tracking; the member\'s order list shows them', async () => {
    const buyer = privateKeyToAccount(buyerKey);
    const { page: memberPage, token: buyerToken = '' } = await e2e.open({ wallet: walletOn(buyerKey), signedIn: {} });
    for (let grant = 0; grant < 2; grant++) expect((await treasuryCall(e2e, '/api/admin/grant', { address: buyer.address, asset: 'CREDIT', amount: '100', requestId: randomUUID() })).code).toBe(0);
    // The member buys one seeded tea (the buy flow's own journey is buyJourney.spec.ts): an address, then the settlement.
    const delivery = await memberCall<{ deliveryId: string }>(e2e, buyerToken, '/api/member/delivery/add', {
      name: 'Li Lei',
      phone: '138 0013 8000',
      region: '浙江省 / 杭州市 / 西湖区',
      detail: 'Wensan Road 100',
      isDefault: true,
    });
    const order = await memberCall<{ orderId: string; status: string }>(e2e, buyerToken, '/api/order/settle', {
      goodsId: 'longjing-tea',
      quantity: 1,
      deliveryId: delivery.deliveryId,
      requestId: randomUUID(),
    });
    expect(order.status).toBe('paid');

    // The operator finds it to ship, with its delivery address, and ships it.
    const { page } = await openDeskSignedIn();
    await page.getByRole('navigation', { name: t('ops:shell.menu') }).getByRole('link', { name: t('ops:screens.orders'), exact: true }).click();
    const item = page.getByRole('article', { name: new RegExp(`^#${order.orderId} `) });
    await item.getByText('浙江省 / 杭州市 / 西湖区 Wensan Road 100').waitFor();
    await item.getByRole('button', { name: t('ops:orders.ship'), exact: true }).click();
    await item.getByLabel(t('ops:orders.carrier'), { exact: true }).fill('SF Express');
    await item.getByLabel(t('ops:orders.trackingNumber'), { exact: true }).fill('SF1234567890');
    await item.getByRole('button', { name: t('ops:orders.confirmShip'), exact: true }).click();
    await item.getByText(t('ops:orders.shippedNow', { carrier: 'SF Express', trackingNumber: 'SF1234567890' })).waitFor();
    await screenshot(page, 'ops-6-order-shipped');

    // The member's orders show it shipped with the carrier and tracking number.
    await memberPage.goto('/buy-list?tab=orders');
    const row = memberPage.locator('.orders .adm-list-item').filter({ hasText: 'SF1234567890' });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(t('buy:orders.status.shipped'));
    expect(text).toMatch(/by SF Express, tracking number SF1234567890/);
    await screenshot(memberPage, 'ops-7-member-shipped');
  });

  it('publishes a notice written in zh and en at /ops/content; a member reads it in the announcements in each language', async () => {
    const { page } = await openDeskSignedIn();
    await page.getByRole('navigation', { name: t('ops:shell.menu') }).getByRole('link', { name: t('ops:screens.content'), exact: true }).click();
    await page.getByRole('button', { name: t('ops:content.notices.write'), exact: true }).click();
    const editor = page.getByRole('article', { name: t('ops:content.notices.newTitle') });
    await editor.getByLabel(t('ops:content.notices.id'), { exact: true }).fill('desk-notice');
    const texts = { zh: { title: '系统维护通知', body: '<p>周六凌晨 2 点系统维护。</p><script>window.hacked = 1</script>' }, en: { title: 'Maintenance on Saturday', body: '<p>The app is down for maintenance at 2 am on Saturday.</p>' } };
    for (const lang of ['zh', 'en'] as const) {
      const fields = editor.getByRole('group', { name: t(`ops:content.notices.lang.${lang}`) });
      await fields.getByLabel(t('ops:content.notices.title'), { exact: true }).fill(texts[lang].title);
      await fields.getByLabel(t('ops:content.notices.body'), { exact: true }).fill(texts[lang].body);
    }
    await editor.getByRole('button', { name: t('ops:content.notices.preview'), exact: true }).click();
    const zhPreview = editor.getByRole('article', { name: t('ops:content.notices.previewOf', { lang: t('ops:content.notices.lang.zh') }) });
    await zhPreview.getByText('周六凌晨 2 点系统维护。').waitFor();
    expect(await zhPreview.locator('script').count()).toBe(0);
    await editor.getByRole('button', { name: t('ops:content.notices.save'), exact: true }).click();
    // Saved, the editor is named by the notice's id; the server's sanitised texts show, with what it left out.
    const saved = page.getByRole('article', { name: t('ops:content.notices.editTitle', { id: 'desk-notice' }) });
    // The save answers after the server's sanitiser: on a host loaded by the whole suite, now and then past 10 s.
    await saved.getByText(t('ops:content.notices.sanitised')).waitFor({ timeout: 20_000 });
    await saved.getByRole('button', { name: t('ops:content.notices.publish'), exact: true }).click();
    await saved.getByRole('button', { name: t('ops:content.notices.unpublish'), exact: true }).waitFor();
    await screenshot(page, 'ops-8-notice-published');

    // A member reads it in the announcements, in English, then in Chinese; the script never reaches them.
    const { page: memberPage } = await e2e.open({ wallet: walletOn(readerKey), signedIn: {} });
    for (const lang of ['en', 'zh'] as const) {
      await memberPage.goto(`/me/announcement?lng=${lang}`);
      await memberPage.locator('.rows').getByRole('link', { name: texts[lang].title, exact: true }).click();
      const article = memberPage.getByRole('article');
      await article.getByText(lang === 'en' ? 'The app is down for maintenance at 2 am on Saturday.' : '周六凌晨 2 点系统维护。').waitFor();
      expect(await article.locator('script').count()).toBe(0);
    }
    expect(await memberPage.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
    await screenshot(memberPage, 'ops-9-member-reads-notice');
  });
  it('clears a queue of 200 withdrawals from the keyboard at 1280 px: one finance operator approves all, a second those above what one approves alone', async () => {
    // Ten members with twenty withdrawals each; every fifth is 150, above the 100 one operator approves alone here.
    const memberKeys = Array.from({ length: 10 }, (_, index) => `0x${(index + 16).toString(16).repeat(32)}` as const);
    const amountAt = (index: number) => (index % 5 === 4 ? '150' : String(12 + index));
    const admin = (await deskSessionOverHttp(e2e, DEMO_OPERATOR_KEY)).headers;
    for (const key of [firstFinanceKey, secondFinanceKey]) {
      expect((await call('/api/admin/operators/put', admin, { address: privateKeyToAccount(key).address, roles: ['finance'] })).code).toBe(0);
    }
    const queued = await Promise.all(
      memberKeys.map(async (key) => {
        const { token } = await memberSessionOverHttp(e2e.server, key);
        const address = privateKeyToAccount(key).address;
        for (let grant = 0; grant < 11; grant++) expect((await treasuryCall(e2e, '/api/admin/grant', { address, asset: 'CREDIT', amount: '100', requestId: randomUUID() })).code).toBe(0);
        const ids: { id: string; amount: string }[] = [];
        for (let index = 0; index < 20; index++) {
          const amount = amountAt(index);
          const withdrawal = await memberCall<{ id: string; status: string }>(e2e, token, '/api/member/withdrawCredit', { amount, requestId: randomUUID() });
          expect(withdrawal.status).toBe('pending');
          ids.push({ id: withdrawal.id, amount });
        }
        return { address, ids };
      }),
    );
    expect(queued.flatMap((member) => member.ids)).toHaveLength(200);

    /**
     * An operator at 1280 px works through what waits for their approval, 100 rows a page, by the keyboard alone:
     * j into the table, Shift+X ticks the page, a asks to approve, Enter confirms; until nothing waits.
     */
    const clearQueue = async (key: `0x${string}`, name: string) => {
      const { page } = await openDeskSignedIn(key, '/ops/withdrawals?status=pending&awaiting=me&limit=100');
      await page.setViewportSize({ width: 1280, height: 800 });
      const table = page.getByRole('table', { name: t('ops:withdrawals.queue') });
      const empty = page.getByText(t('ops:withdrawals.emptyForMe'));
      const firstRow = () => table.locator('tbody button[data-open]').first().getAttribute('aria-label');
      const counted = { approved: 0, waiting: 0, rounds: 0 };
      for (let round = 0; round < 4; round++) {
        await table.or(empty).waitFor();
        if (await empty.isVisible()) break;
        await page.keyboard.press('j');
        await page.keyboard.press('Shift+X');
        const rows = await table.locator('tbody tr').count();
        const before = await firstRow();
        await page.keyboard.press('a');
        const confirm = page.getByRole('button', { name: t('ops:withdrawals.bulkConfirm', { count: rows }) });
        await expect.poll(() => confirm.evaluate((button) => button === document.activeElement)).toBe(true);
        if (round === 0) await screenshot(page, `ops-queue-1280-${name}-confirm`);
        await page.keyboard.press('Enter');
        const summary = page.getByRole('status').filter({ hasText: /approved;/u });
        await summary.waitFor({ timeout: 30_000 });
        const [, approved = '0', waiting = '0'] = /(\d+) approved; (\d+) wait/u.exec((await summary.textContent()) ?? '') ?? [];
        counted.approved += Number(approved);
        counted.waiting += Number(waiting);
        counted.rounds += 1;
        // The queue read again: the approved rows have left it (or nothing is left).
        await expect.poll(async () => (await empty.isVisible()) || ((await table.isVisible()) && (await firstRow()) !== before), { timeout: 15_000 }).toBe(true);
      }
      await empty.waitFor();
      await screenshot(page, `ops-queue-1280-${name}-cleared`);
      return counted;
    };
    // The first: two pages of 100; 160 approved alone, the 40 of 150 wait for a second operator.
    expect(await clearQueue(firstFinanceKey, 'first')).toEqual({ approved: 160, waiting: 40, rounds: 2 });
    // The second sees only the 40 waiting for them, and completes them.
    expect(await clearQueue(secondFinanceKey, 'second')).toEqual({ approved: 40, waiting: 0, rounds: 1 });

    // Every one is approved (or paid since), each of 150 by both operators, the others by the first alone.
    const [first, second] = [firstFinanceKey, secondFinanceKey].map((key) => privateKeyToAccount(key).address);
    for (const member of queued) {
      const listed = await call<{ list: { id: string; status: string; approvals: { address: string }[] }[] }>(`/api/admin/withdrawals?address=${member.address}&limit=100`, admin);
      const byId = new Map((listed.result?.list ?? []).map((row) => [row.id, row]));
      for (const { id, amount } of member.ids) {
        const row = byId.get(id);
        expect(row?.status, id).not.toBe('pending');
        expect(row?.approvals.map((approval) => approval.address), id).toEqual(amount === '150' ? [first, second] : [first]);
      }
    }
  });
});
