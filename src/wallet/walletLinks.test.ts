import { describe, expect, it } from 'vitest';
import { WALLET_LINK_SOURCES } from './walletLinkSources';
import { WALLET_LINKS, isMobileBrowser } from './walletLinks';

const page = new URL('https://member.example/login/K7Q2ZP0A?lang=zh#top');

/** Reads the page address back out of each wallet's link, the way that wallet's documentation says it is carried. */
function carriedPage(id: string, href: string): string {
  const link = new URL(href);
  switch (id) {
    case 'metamask':
      return `https://${href.slice('https://link.metamask.io/dapp/'.length)}`;
    case 'trust':
      expect(link.searchParams.get('coin_id')).toBe('60');
      return link.searchParams.get('url') ?? '';
    case 'tokenpocket':
      return (JSON.parse(link.searchParams.get('params') ?? '{}') as { url: string }).url;
    case 'imtoken':
    case 'bitget':
      return link.searchParams.get('url') ?? '';
    case 'okx':
      return new URL(link.searchParams.get('deeplink') ?? '').searchParams.get('dappUrl') ?? '';
    case 'coinbase':
      return link.searchParams.get('cb_url') ?? '';
    case 'phantom':
      expect(link.searchParams.get('ref')).toBe(page.origin);
      return decodeURIComponent(link.pathname.slice('/ul/browse/'.length));
    default:
      throw new Error(`no reader for ${id}`);
  }
}

describe('WALLET_LINKS', () => {
  it('covers the wallets members use, each citing its documentation', () => {
    expect(WALLET_LINKS.map((wallet) => wallet.id)).toEqual(
      expect.arrayContaining(['metamask', 'trust', 'tokenpocket', 'imtoken', 'okx', 'bitget']),
    );
    // Every link names where its wallet documents the format, and no source is left for a wallet that went.
    for (const wallet of WALLET_LINKS) expect(WALLET_LINK_SOURCES[wallet.id]).toMatch(/^https:\/\/\S+/);
    expect(Object.keys(WALLET_LINK_SOURCES).sort()).toEqual(WALLET_LINKS.map((wallet) => wallet.id).sort());
    expect(new Set(WALLET_LINKS.map((wallet) => wallet.id)).size).toBe(WALLET_LINKS.length);
  });

  it.each(WALLET_LINKS.map((wallet) => [wallet.id, wallet] as const))('%s carries the whole page, invite code included', (id, wallet) => {
    expect(carriedPage(id, wallet.href(page))).toBe(page.href);
  });

  it('encodes the page so its own query stays inside the wallet link', () => {
    const trust = WALLET_LINKS.find((wallet) => wallet.id === 'trust');
    expect(trust?.href(page)).toBe(
      'https://link.trustwallet.com/open_url?coin_id=60&url=https%3A%2F%2Fmember.example%2Flogin%2FK7Q2ZP0A%3Flang%3Dzh%23top',
    );
  });
});

describe('isMobileBrowser', () => {
  it.each([
    ['Android Chrome', { userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36' }, true],
    ['iPhone Safari', { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1' }, true],
    ['iPadOS posing as a Mac', { userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/18.0 Safari/605.1.15', maxTouchPoints: 5 }, true],
    ['client hints say mobile', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', userAgentData: { mobile: true } }, true],
    ['desktop Mac', { userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/18.0 Safari/605.1.15', maxTouchPoints: 0 }, false],
    ['desktop Chrome on Windows', { userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' }, false],
  ])('%s → %s', (_name, browser, mobile) => {
    expect(isMobileBrowser(browser)).toBe(mobile);
  });
});
