/**
 * The member area in Debian Chromium against the real server: member A signs in through the seeded
 * invite, member B through A's invite link (both over HTTP: the sign-in screens are journeys.spec.ts's subject), then
 * A opens every member-area screen in en, then in zh through the screens' language switch, the page loaded once and
 * the screens reached through the app's own tabs, menu and links, searches the team for B and opens a notice. With E2E_SCREENSHOTS=1 a screenshot of
 * each step goes to test-results/screenshots/member-area-*.png.
 */
import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { screenshot } from './support/browser';
import { memberSessionOverHttp, setupJourneys } from './support/journey';
import { translate } from './support/visual';
import { anvilKeys } from './support/wallet/anvilKeys';

const e2e = setupJourneys();

describe('member area', () => {
  it('opens every screen in en and zh, finds the invited member and reads a notice', async () => {
    const a = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[3]] }, signedIn: {} });
    const { page } = a;
    await page.goto('/me');
    const inviteCode = (await page.getByTestId('me-invite-code').textContent()) ?? '';
    expect(inviteCode).toMatch(/^[A-Z0-9]{4,16}$/);

    const keyB = anvilKeys[4];
    if (!keyB) throw new Error('no anvil key');
    await memberSessionOverHttp(e2e.server, keyB, inviteCode);
    const addressB = privateKeyToAccount(keyB).address;

    const shown = async (heading: string, name: string) => {
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await screenshot(page, `member-area-${name}`);
    };

    for (const [lng, texts] of [
      ['en', { team: 'My team', search: 'Search the team', notices: 'Announcements', about: 'About us', bots: 'Bots', home: 'Home', notice: 'Announcement' }],
      ['zh', { team: '我的团队', search: '搜索团队', notices: '公告', about: '关于我们', bots: '机器人', home: '首页', notice: '公告详情' }],
    ] as const) {
      const tab = (key: string) => page.getByRole('navigation', { name: translate(lng, 'common:nav.label') }).getByRole('link', { name: translate(lng, `common:nav.${key}`), exact: true });
      const menu = (key: string) => page.getByRole('link', { name: translate(lng, `me:menu.${key}`), exact: true });

      if (lng === 'en') await page.goto(`/home?lng=${lng}`);
      else {
        // From the last screen in English, through the screen's own language switch.
        await page.getByRole('button', { name: 'Switch language to 简体中文', exact: true }).click();
        await tab('home').click();
      }
      await page.getByRole('heading', { level: 1, name: texts.home }).waitFor();
      await screenshot(page, `member-area-home.${lng}`);

      await tab('team').click();
      await page.getByTitle(addressB).waitFor();
      await shown(texts.team, `team.${lng}`);
      expect(await page.getByTitle(addressB).count()).toBe(1);

      await page.getByRole('link', { name: translate(lng, 'team:search.open'), exact: true }).click();
      await shown(texts.search, `team-search.${lng}`);
      await page.getByRole('searchbox').fill(addressB.slice(2, 8).toLowerCase());
      await page.getByTitle(addressB).waitFor();
      await screenshot(page, `member-area-team-search-found.${lng}`);
      await page.getByRole('searchbox').fill('ffffffffff');
      await page.getByText(lng === 'en' ? 'No address in your team matches' : '团队中没有匹配的地址').waitFor();

      await tab('me').click();
      await menu('announcement').click();
      await shown(texts.notices, `announcements.${lng}`);
      await page.locator('.rows').getByRole('link').first().click();
      await page.getByRole('heading', { level: 1, name: texts.notice }).waitFor();
      await page.getByRole('article').waitFor();
      expect(await page.locator('article script, article iframe, article [onerror]').count()).toBe(0);
      await screenshot(page, `member-area-announcement-detail.${lng}`);

      await tab('me').click();
      await menu('about').click();
      await shown(texts.about, `about.${lng}`);
      await page.getByRole('article').waitFor();
      await tab('me').click();
      await menu('solbot').click();
      await page.getByText(lng === 'en' ? 'Running' : '运行中').first().waitFor();
      await shown(texts.bots, `bots.${lng}`);
      expect(await page.getByText(lng === 'en' ? 'Running' : '运行中').count()).toBeGreaterThan(0);
    }
  });
});
