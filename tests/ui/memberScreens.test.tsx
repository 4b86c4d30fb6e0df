/**
 * The member screens' own states through the rendered pages: loading, error with retry and loaded on /home,
 * copying on /me, the back arrow of a nested page opened directly, and the 404 page.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testMeInfo } from '../support/fakeApi';
import { renderApp } from './support/renderApp';

const signedIn = { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(testMeInfo()) };
/** A bound session restored without a stored member record: the page waits for meInfo. */
const tokenOnly = { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.sessionAddress]: JSON.stringify(testMeInfo().address) };
const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('/home', () => {
  it('shows a loading skeleton until meInfo answers, then the balances, team and shortcuts', async () => {
    const app = await renderApp({ path: '/home', stored: tokenOnly, api: (api) => api.hold('meInfo', { once: true }) });
    await heading('Home');
    expect(screen.getAllByRole('status').map((element) => element.textContent)).toContain('Loading…');
    (await app.api.next('meInfo')).answer({ code: 0, result: { ...testMeInfo(), creditBalance: '1234567.5', wposBalance: '0.000001' } });
    const balances = await screen.findByRole('region', { name: 'My assets' });
    expect(within(balances).getByText('1,234,567.50')).toBeTruthy();
    expect(within(balances).getByText('0.000001')).toBeTruthy();
    expect(screen.getByText('Team members').nextElementSibling?.textContent).toBe('2');
    expect(screen.getByText('Direct invites').nextElementSibling?.textContent).toBe('1');
    const shortcuts = screen.getByRole('navigation', { name: 'Shortcuts' });
    expect(within(shortcuts).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/me/wpos',
      '/team',
      '/me/invitation',
      '/buy-list',
    ]);
  });

  it('shows balances changed elsewhere (an operator\'s refund) once the kept record is 15 s old: on a page that shows them, or when the app is shown again', async () => {
    const balance = async (region: string, amount: string) => expect(await within(await screen.findByRole('region', { name: region })).findByText(amount)).toBeTruthy();
    const app = await renderApp({ path: '/home', stored: tokenOnly, api: (api) => api.answer('meInfo', { code: 0, result: { ...testMeInfo(), creditBalance: '10' } }) });
    await balance('My assets', '10.00');
    app.api.answer('meInfo', { code: 0, result: { ...testMeInfo(), creditBalance: '25' } });
    // Just read: another page that shows it reads nothing more.
    await act(() => app.router.navigate('/me'));
    await balance('Balances', '10.00');
    expect(app.api.callsTo('meInfo')).toHaveLength(1);
    act(() => app.clock.increment(15_000));
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await balance('Balances', '25.00');
    expect(app.api.callsTo('meInfo')).toHaveLength(2);
    app.api.answer('meInfo', { code: 0, result: { ...testMeInfo(), creditBalance: '40' } });
    await act(() => app.router.navigate('/me/wpos'));
    await balance('Balances', '25.00');
    act(() => app.clock.increment(15_000));
    await act(() => app.router.navigate('/home'));
    await balance('My assets', '40.00');
    expect(app.api.callsTo('meInfo')).toHaveLength(3);
    // A read that fails (a phone back on a bad network) keeps the figures; the next time the app is shown reads again.
    app.api.failNetwork('meInfo', { once: true });
    app.api.answer('meInfo', { code: 0, result: { ...testMeInfo(), creditBalance: '55' } });
    act(() => app.clock.increment(15_000));
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Network problem. Please try again later.');
    await balance('My assets', '40.00');
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await balance('My assets', '55.00');
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(app.api.callsTo('meInfo')).toHaveLength(5);
  });

  it('says what failed and loads again on retry', async () => {
    const app = await renderApp({ path: '/home', stored: tokenOnly, api: (api) => api.hold('meInfo', { once: true }) });
    (await app.api.next('meInfo')).failNetwork();
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Network problem. Please try again later.');
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'My assets' })).toBeTruthy();
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('shows the newest announcement as a link, none, or its error with a retry', async () => {
    const notice = { noticeId: 'welcome', title: 'Welcome to the new app', summary: 'Hi', publishedAt: '2026-11-20T08:00:00.000Z' };
    const app = await renderApp({ path: '/home', stored: signedIn, api: (api) => api.failNetwork('queryPagePlatformNotice', { once: true }) });
    const card = await screen.findByRole('region', { name: 'Latest announcement' });
    expect((await within(card).findByRole('alert')).textContent).toBe('Network problem. Please try again later.');
    app.api.answer('queryPagePlatformNotice', { code: 0, result: { list: [notice], total: 1, page: 1, pageSize: 1 } });
    await app.user.click(within(card).getByRole('button', { name: 'Try again' }));
    const link = await within(card).findByRole('link', { name: /Welcome to the new app/ });
    expect(link.getAttribute('href')).toBe('/me/announcement/detail/welcome');
    expect(app.api.callsTo('queryPagePlatformNotice').at(-1)?.query.get('pageSize')).toBe('1');
  });

  it('says when there is no announcement yet', async () => {
    await renderApp({ path: '/home', stored: signedIn });
    const card = await screen.findByRole('region', { name: 'Latest announcement' });
    expect(await within(card).findByText('No announcements yet')).toBeTruthy();
  });

  it('moves between tabs through real links, marking the current one', async () => {
    const app = await renderApp({ path: '/home', stored: signedIn });
    const tabs = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(tabs).getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    await app.user.click(within(tabs).getByRole('link', { name: 'Me' }));
    await heading('Me');
    expect(app.router.state.location.pathname).toBe('/me');
    expect(within(tabs).getByRole('link', { name: 'Me' }).getAttribute('aria-current')).toBe('page');
    expect(within(tabs).getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBeNull();
  });
});

describe('/me', () => {
  // user-event installs its own clipboard on navigator when the app renders; the tests spy on that one.
  it('copies the whole address and says so', async () => {
    const app = await renderApp({ path: '/me', stored: signedIn });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await app.user.click(await screen.findByRole('button', { name: 'Copy address' }));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Address copied');
    expect(writeText).toHaveBeenCalledWith(testMeInfo().address);
  });

  it('says when the browser refuses the clipboard', async () => {
    const app = await renderApp({ path: '/me', stored: signedIn });
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    await app.user.click(await screen.findByRole('button', { name: 'Copy address' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Copying is blocked here. Select the text and copy it by hand.');
  });

  it('lists the member area as links', async () => {
    await renderApp({ path: '/me', stored: signedIn });
    const menu = await screen.findByRole('navigation', { name: 'More' });
    expect(within(menu).getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Invite friends',
      'WPOS',
      'Bots',
      'Announcements',
      'Shipping addresses',
      'About us',
    ]);
  });
});

describe('frames of nested and unknown pages', () => {
  it('takes a nested page opened directly back to its parent', async () => {
    const app = await renderApp({ path: '/me/invitation', stored: signedIn });
    await heading('Invite friends');
    await app.user.click(screen.getByRole('button', { name: 'Back' }));
    await heading('Me');
    expect(app.router.state.location.pathname).toBe('/me');
  });

  it('goes back in history when the member came from another page', async () => {
    const app = await renderApp({ path: '/home', stored: signedIn });
    await heading('Home');
    await app.user.click(within(screen.getByRole('navigation', { name: 'Shortcuts' })).getByRole('link', { name: 'WPOS' }));
    await heading('WPOS');
    await app.user.click(screen.getByRole('button', { name: 'Back' }));
    await heading('Home');
  });

  it('shows a translated 404 with the way home', async () => {
    const app = await renderApp({ path: '/no/such/page', stored: signedIn });
    await heading('Page not found');
    await app.user.click(screen.getByRole('button', { name: 'Back to home' }));
    await heading('Home');
    expect(app.router.state.location.pathname).toBe('/home');
  });

  it('switches the language from the bar', async () => {
    const app = await renderApp({ path: '/login' });
    await heading('Sign in');
    await app.user.click(screen.getByRole('button', { name: 'Switch language to 简体中文' }));
    await waitFor(() => expect(app.i18n.language).toBe('zh'));
  });
});
