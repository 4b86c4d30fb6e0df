/**
 * The member-area screens of the paged-list, search and document machines through the rendered pages: loading,
 * empty, error with retry, loaded, paging, refresh, search as you type, not found, and the language switch.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testMeInfo } from '../support/fakeApi';
import { pretendTheListEndIsInView } from './support/listEnd';
import { renderApp } from './support/renderApp';

const signedIn = { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(testMeInfo()) };
const heading = (name: string) => screen.findByRole('heading', { level: 1, name });
const pageOf = (list: unknown[], total: number, page = 1) => ({ code: 0, result: { list, total, page, pageSize: 20 } });
const bot = (index: number, status = 'running') => ({ id: `bot-${index}`, name: `Bot ${index}`, status, profitRate: '12.5', createdAt: '2026-11-01T08:00:00.000Z' });
const member = (address: string, level: number, directCount = 0) => ({ address, level, teamSize: 3, directCount, joinedAt: '2026-11-02T08:00:00.000Z' });
const addressB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const addressC = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

describe('/me/solbot-list (paged list)', () => {
  let restore: (() => void) | null = null;
  afterEach(() => {
    restore?.();
    restore = null;
  });

  it('shows a skeleton, then the bots with their status and profit rate', async () => {
    const app = await renderApp({ path: '/me/solbot-list', stored: signedIn, api: (api) => api.hold('solbotList', { once: true }) });
    await heading('Bots');
    expect(screen.getAllByRole('status').map((element) => element.textContent)).toContain('Loading…');
    (await app.api.next('solbotList')).answer(pageOf([bot(1, 'running'), bot(2, 'paused'), bot(3, 'stopped'), bot(4, 'exploded')], 4));
    expect(await screen.findByText('Bot 1')).toBeTruthy();
    expect(screen.getByText('Running')).toBeTruthy();
    expect(screen.getByText('Paused')).toBeTruthy();
    expect(screen.getByText('Stopped')).toBeTruthy();
    expect(screen.getByText('Unknown status')).toBeTruthy();
    expect(screen.getAllByText('Profit rate +12.50%')).toHaveLength(4);
  });

  it('says when there are none, and refreshes on request', async () => {
    const app = await renderApp({ path: '/me/solbot-list', stored: signedIn, api: (api) => api.answer('solbotList', pageOf([], 0)) });
    expect(await screen.findByText('No bots yet')).toBeTruthy();
    app.api.answer('solbotList', pageOf([bot(1)], 1));
    await app.user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Bot 1')).toBeTruthy();
    expect(app.api.callsTo('solbotList')).toHaveLength(2);
  });

  it('shows the error with a retry that loads the list', async () => {
    const app = await renderApp({ path: '/me/solbot-list', stored: signedIn, api: (api) => api.failNetwork('solbotList', { once: true }) });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Network problem. Please try again later.');
    app.api.answer('solbotList', pageOf([bot(1)], 1));
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Bot 1')).toBeTruthy();
  });

  it('pages in as the end comes into view, with a retry when a page fails, until no more', async () => {
    restore = pretendTheListEndIsInView();
    const first = Array.from({ length: 20 }, (_, index) => bot(index + 1));
    const app = await renderApp({
      path: '/me/solbot-list',
      stored: signedIn,
      api: (api) => {
        api.answer('solbotList', pageOf(first, 21), { once: true });
        api.failNetwork('solbotList', { once: true });
        api.answer('solbotList', pageOf([bot(21)], 21, 2));
      },
    });
    expect(await screen.findByText('Bot 20')).toBeTruthy();
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Network problem. Please try again later.');
    expect(screen.getByText('Bot 1')).toBeTruthy();
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Bot 21')).toBeTruthy();
    expect(await screen.findByText('No more')).toBeTruthy();
    expect(app.api.callsTo('solbotList').map((call) => call.query.get('page'))).toEqual(['1', '2', '2']);
  });
});

describe('/team and /team/search', () => {
  it('lists the direct members, opens a member\'s own team, and offers the search', async () => {
    const app = await renderApp({ path: '/team', stored: signedIn, api: (api) => api.answer('team', pageOf([member(addressB, 1, 2), member(addressC, 1)], 2)) });
    await heading('My team');
    expect(await screen.findAllByText('Direct')).toHaveLength(2);
    expect(screen.getAllByText('Team of 3 · Joined Nov 2, 2026')).toHaveLength(2);
    // Only the member with direct members of its own opens a team.
    expect(screen.getAllByRole('link', { name: 'Open their team (2 direct)' })).toHaveLength(1);
    app.api.answer('team', pageOf([member(addressC, 2)], 1));
    await app.user.click(screen.getByRole('link', { name: 'Open their team (2 direct)' }));
    await heading(`Team of ${addressB.slice(0, 6)}…${addressB.slice(-4)}`);
    expect(await screen.findByText('Level 2')).toBeTruthy();
    expect(app.api.callsTo('team').map((call) => call.query.get('of'))).toEqual([null, addressB]);
    await app.user.click(screen.getByRole('button', { name: 'Back' }));
    await heading('My team');
    await app.user.click(screen.getByRole('link', { name: 'Search the team' }));
    await heading('Search the team');
  });

  it('says when the team is empty', async () => {
    await renderApp({ path: '/team', stored: signedIn, api: (api) => api.answer('team', pageOf([], 0)) });
    expect(await screen.findByText('No team members yet')).toBeTruthy();
  });

  it('checks the keyword as it is typed and shows only matches for the newest one', async () => {
    const app = await renderApp({ path: '/team/search', stored: signedIn, api: (api) => api.answer('teamSearch', { code: 0, result: { list: [member(addressB, 1)] } }) });
    await heading('Search the team');
    const box = screen.getByRole('searchbox');
    await app.user.type(box, '0x3c');
    expect(screen.getByRole('status').textContent).toBe('Type at least 4 hex characters');
    await app.user.type(box, 'z');
    expect(screen.getByRole('alert').textContent).toBe('An address has only 0-9 and a-f');
    await app.user.clear(box);
    await app.user.type(box, '3C44');
    expect(await screen.findByText('1 member found')).toBeTruthy();
    expect(screen.getByTitle(addressB)).toBeTruthy();
    expect(app.api.callsTo('teamSearch').map((call) => call.query.get('keyword'))).toEqual(['3C44']);
    app.api.answer('teamSearch', { code: 0, result: { list: [] } });
    await app.user.type(box, '9');
    expect(await screen.findByText('No address in your team matches')).toBeTruthy();
  });

  it('says what can be searched before anything is typed', async () => {
    const app = await renderApp({ path: '/team/search', stored: signedIn });
    await heading('Search the team');
    expect(screen.getByText('Search your whole team by address')).toBeTruthy();
    expect(app.api.callsTo('teamSearch')).toEqual([]);
  });

  it('shows a failed search with a retry', async () => {
    const app = await renderApp({ path: '/team/search', stored: signedIn, api: (api) => api.failNetwork('teamSearch', { once: true }) });
    await app.user.type(await screen.findByRole('searchbox'), 'abcd');
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Network problem. Please try again later.');
    app.api.answer('teamSearch', { code: 0, result: { list: [member(addressB, 1)] } });
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('1 member found')).toBeTruthy();
  });
});

describe('announcements and about', () => {
  const notice = { noticeId: 'welcome', title: 'Welcome', summary: 'Read me', publishedAt: '2026-11-20T08:00:00.000Z' };

  it('opens a notice from the list and renders its HTML sanitised', async () => {
    const app = await renderApp({
      path: '/me/announcement',
      stored: signedIn,
      api: (api) => {
        api.answer('queryPagePlatformNotice', pageOf([notice], 1));
        api.answer('noticeDetail', {
          code: 0,
          result: { ...notice, content: '<p>Hello <a href="https://example.org">rules</a></p><img src=x onerror="window.hacked=1"><script>window.hacked=1</script>' },
        });
      },
    });
    await app.user.click(await screen.findByRole('link', { name: 'Welcome' }));
    await heading('Announcement');
    const article = await screen.findByRole('article');
    const link = within(article).getByRole('link', { name: 'rules' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(article.querySelector('script, [onerror]')).toBeNull();
    expect(app.api.callsTo('noticeDetail')[0]?.query.get('noticeId')).toBe('welcome');
    expect(app.api.callsTo('queryPagePlatformNotice')[0]?.query.get('lang')).toBe('en');
  });

  it('says an unknown notice is not found and leads back to the list', async () => {
    const app = await renderApp({ path: '/me/announcement/detail/nope', stored: signedIn, api: (api) => api.answer('noticeDetail', { code: 4004 }) });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Announcement not found');
    app.api.answer('queryPagePlatformNotice', pageOf([], 0));
    await app.user.click(screen.getByRole('button', { name: 'Back to announcements' }));
    await heading('Announcements');
    expect(await screen.findByText('No announcements yet')).toBeTruthy();
  });

  it('shows a notice loading, then its error with a retry', async () => {
    const app = await renderApp({ path: '/me/announcement/detail/welcome', stored: signedIn, api: (api) => api.hold('noticeDetail', { once: true }) });
    await heading('Announcement');
    expect(screen.getAllByRole('status').map((element) => element.textContent)).toContain('Loading…');
    (await app.api.next('noticeDetail')).failNetwork();
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Network problem. Please try again later.');
    app.api.answer('noticeDetail', { code: 0, result: { ...notice, content: '<p>Back again</p>' } });
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Back again')).toBeTruthy();
  });

  it('shows the notice a link leads to from another notice, not the one before it', async () => {
    const app = await renderApp({
      path: '/me/announcement/detail/welcome',
      stored: signedIn,
      api: (api) => api.answer('noticeDetail', { code: 0, result: { ...notice, content: '<p>First notice</p>' } }),
    });
    expect(await screen.findByText('First notice')).toBeTruthy();
    app.api.answer('noticeDetail', { code: 0, result: { ...notice, noticeId: 'rules', title: 'Rules', content: '<p>Second notice</p>' } });
    await act(() => app.router.navigate('/me/announcement/detail/rules'));
    expect(await screen.findByText('Second notice')).toBeTruthy();
    expect(app.api.callsTo('noticeDetail').map((call) => call.query.get('noticeId'))).toEqual(['welcome', 'rules']);
  });

  it('treats a malformed notice id (1001) as not found', async () => {
    await renderApp({ path: '/me/announcement/detail/bad%20id!', stored: signedIn, api: (api) => api.answer('noticeDetail', { code: 1001 }) });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Announcement not found');
  });

  it('shows the about page failing with a retry', async () => {
    const app = await renderApp({ path: '/me/about', stored: signedIn, api: (api) => api.answer('aboutOur', { code: 5000 }, { once: true }) });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'The server is busy. Please try again later.');
    app.api.answer('aboutOur', { code: 0, result: { title: 'About', content: '<p>We are</p>' } });
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('We are')).toBeTruthy();
  });

  it('loads the about page again in the language the member switches to', async () => {
    const app = await renderApp({ path: '/me/about', stored: signedIn, api: (api) => api.answer('aboutOur', { code: 0, result: { title: 'About', content: '<p>We are</p>' } }) });
    expect(await screen.findByText('We are')).toBeTruthy();
    await app.user.click(screen.getByRole('button', { name: 'Switch language to 简体中文' }));
    await waitFor(() => expect(app.api.callsTo('aboutOur').map((call) => call.query.get('lang'))).toEqual(['en', 'zh']));
  });
});
