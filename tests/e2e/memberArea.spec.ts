/**
 * The member area in Debian Chromium against the real server (issue 12): member A signs in through the seeded
 * invite, member B through A's invite link, then A opens every member-area screen in en and zh, searches the team
 * for B and opens a notice. With E2E_SCREENSHOTS=1 a screenshot of each step goes to test-results/screenshots/member-area-*.png.
 */
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { signInThroughInvite, setupJourneys } from './support/journey';
import { anvilKeys } from './wallet/keys';

const e2e = setupJourneys();

describe('member area', () => {
  it('opens every screen in en and zh, finds the invited member and reads a notice', async () => {
    const a = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[3]] } });
    if (!a.wallet) throw new Error('needs the test wallet');
    await signInThroughInvite(a.page, a.wallet);
    await a.page.goto('/me');
    const inviteCode = (await a.page.getByTestId('me-invite-code').textContent()) ?? '';
    expect(inviteCode).toMatch(/^[A-Z0-9]{4,16}$/);

    const b = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[4]] } });
    if (!b.wallet) throw new Error('needs the test wallet');
    await signInThroughInvite(b.page, b.wallet, inviteCode);
    const addressB = b.wallet.address;

    const { page } = a;
    const visit = async (path: string, heading: string, name: string) => {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, `member-area-${name}`);
    };

    for (const [lng, texts] of [
      ['en', { team: 'My team', search: 'Search the team', notices: 'Announcements', about: 'About us', bots: 'Bots', home: 'Home', notice: 'Announcement' }],
      ['zh', { team: '我的团队', search: '搜索团队', notices: '公告', about: '关于我们', bots: '机器人', home: '首页', notice: '公告详情' }],
    ] as const) {
      await page.goto(`/home?lng=${lng}`);
      await page.getByRole('heading', { level: 1, name: texts.home }).waitFor();
      await screenshot(page, `member-area-home.${lng}`);

      await visit('/team', texts.team, `team.${lng}`);
      expect(await page.getByTitle(addressB).count()).toBe(1);

      await visit('/team/search', texts.search, `team-search.${lng}`);
      await page.getByRole('searchbox').fill(addressB.slice(2, 8).toLowerCase());
      await page.getByTitle(addressB).waitFor();
      await screenshot(page, `member-area-team-search-found.${lng}`);
      await page.getByRole('searchbox').fill('ffffffffff');
      await page.getByText(lng === 'en' ? 'No address in your team matches' : '团队中没有匹配的地址').waitFor();

      await visit('/me/announcement', texts.notices, `announcements.${lng}`);
      await page.locator('.rows').getByRole('link').first().click();
      await page.getByRole('heading', { level: 1, name: texts.notice }).waitFor();
      await page.getByRole('article').waitFor();
      expect(await page.locator('article script, article iframe, article [onerror]').count()).toBe(0);
      await screenshot(page, `member-area-announcement-detail.${lng}`);

      await visit('/me/about', texts.about, `about.${lng}`);
      await page.getByRole('article').waitFor();
      await visit('/me/solbot-list', texts.bots, `bots.${lng}`);
      expect(await page.getByText(lng === 'en' ? 'Running' : '运行中').count()).toBeGreaterThan(0);
    }
  });
});
