/**
 * A phone browser without a wallet (the invite link opened in Chrome or Safari): after the search for a wallet,
 * /login offers to open the same page, invite code included, in a wallet app, or to copy its link. A desktop
 * browser keeps the message alone.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WALLET_LINKS } from '../../src/wallet/walletLinks';
import { renderApp } from './support/renderApp';
import type { RenderedApp } from './support/renderApp';
import { expectAlerts, expectButton, expectStatus } from './support/screenQueries';

const androidChrome = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const noWalletMessage = "Phantom not installed: no wallet was found. Open this page in your wallet app's browser.";

async function searchInVain(path: string): Promise<RenderedApp> {
  const app = await renderApp({ path, discovery: [] });
  await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
  await app.user.click(screen.getByRole('button', { name: 'Connect wallet' }));
  act(() => app.clock.increment(3_000));
  await waitFor(() => expectAlerts([noWalletMessage]));
  return app;
}

const openInWallet = () => screen.queryByRole('region', { name: 'Open this page in your wallet app' });

describe('/login in a browser without a wallet', () => {
  afterEach(() => vi.restoreAllMocks());

  it('behavior: on a phone, offers every wallet of the table, each opening this page with its invite code', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(androidChrome);
    await searchInVain('/login/DEMO2026');
    const region = openInWallet();
    expect(region).not.toBeNull();
    const links = within(region as HTMLElement).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(WALLET_LINKS.map((wallet) => wallet.name));
    const page = new URL('/login/DEMO2026', window.location.origin);
    for (const wallet of WALLET_LINKS) {
      expect(screen.getByRole('link', { name: wallet.name }).getAttribute('href')).toBe(wallet.href(page));
    }
    expect(screen.getByRole('link', { name: 'Trust Wallet' }).getAttribute('href')).toContain(encodeURIComponent('/login/DEMO2026'));
    expectButton('Connect wallet');
  });

  it('behavior: on a phone, copies the page link and says so', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(androidChrome);
    const app = await searchInVain('/login/DEMO2026');
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await app.user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', "Link copied. Paste it into your wallet's browser.");
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/login/DEMO2026`);
  });

  it('behavior: on a phone, nothing is offered while the page is still looking', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(androidChrome);
    const app = await renderApp({ path: '/login/DEMO2026', discovery: [] });
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(screen.getByRole('button', { name: 'Connect wallet' }));
    act(() => app.clock.increment(2_999));
    expect(openInWallet()).toBeNull();
  });

  it('behavior: a wallet that arrives after all takes the offer away and connects', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(androidChrome);
    const app = await renderApp({ path: '/login/DEMO2026', discovery: 'manual' });
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(screen.getByRole('button', { name: 'Connect wallet' }));
    await app.discovery.announce([]);
    await waitFor(() => expectStatus('Looking for your wallet…'));
    act(() => app.clock.increment(3_000));
    await waitFor(() => expect(openInWallet()).not.toBeNull());
    await app.discovery.walletArrives();
    await waitFor(() => expect(openInWallet()).toBeNull());
  });

  it('behavior: on a desktop browser, keeps the message alone', async () => {
    await searchInVain('/login/DEMO2026');
    expect(openInWallet()).toBeNull();
    expect(screen.queryByRole('link', { name: 'MetaMask' })).toBeNull();
  });
});
