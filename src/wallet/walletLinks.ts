/**
 * Links that open a page in a wallet app's own browser, where the wallet injects its provider: the way forward for
 * a member who opened the app (often an invite link) in a plain phone browser. One row per wallet. Every link
 * carries the whole page address, so the invite code in /login/:inviteCode arrives in the wallet too. Where each
 * wallet documents its format is walletLinkSources.ts, which members never download.
 */
export interface WalletLink {
  id: string;
  /** The wallet's own name, shown untranslated as on its icon. */
  name: string;
  href: (page: URL) => string;
}

const encoded = (page: URL) => encodeURIComponent(page.href);

export const WALLET_LINKS: readonly WalletLink[] = [
  {
    id: 'metamask',
    name: 'MetaMask',
    href: (page) => `https://link.metamask.io/dapp/${page.host}${page.pathname}${page.search}${page.hash}`,
  },
  {
    id: 'trust',
    name: 'Trust Wallet',
    href: (page) => `https://link.trustwallet.com/open_url?coin_id=60&url=${encoded(page)}`,
  },
  {
    id: 'tokenpocket',
    name: 'TokenPocket',
    href: (page) =>
      `tpdapp://open?params=${encodeURIComponent(JSON.stringify({ url: page.href, chain: 'ETH', source: page.host }))}`,
  },
  {
    id: 'imtoken',
    name: 'imToken',
    href: (page) => `imtokenv2://navigate/DappView?url=${encoded(page)}`,
  },
  {
    id: 'okx',
    name: 'OKX Wallet',
    href: (page) =>
      `https://web3.okx.com/download?deeplink=${encodeURIComponent(`okx://wallet/dapp/url?dappUrl=${encoded(page)}`)}`,
  },
  {
    id: 'bitget',
    name: 'Bitget Wallet',
    href: (page) => `https://bkcode.vip?action=dapp&url=${encoded(page)}`,
  },
  {
    id: 'coinbase',
    name: 'Coinbase Wallet',
    href: (page) => `https://go.cb-w.com/dapp?cb_url=${encoded(page)}`,
  },
  {
    id: 'phantom',
    name: 'Phantom',
    href: (page) => `https://phantom.app/ul/browse/${encoded(page)}?ref=${encodeURIComponent(page.origin)}`,
  },
];

/** What the browser says about itself; navigator satisfies it. */
export interface BrowserIdentity {
  userAgent: string;
  maxTouchPoints?: number;
  userAgentData?: { mobile?: boolean };
}

/**
 * Whether this is a phone or tablet browser, where wallet apps can take over a link. User-Agent Client Hints say it
 * directly (Chromium); otherwise the user agent, with iPadOS counted by touch since it poses as a Mac.
 *
 * @example
 * isMobileBrowser({ userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) … Mobile Safari/537.36' }); // true
 */
export function isMobileBrowser(browser: BrowserIdentity): boolean {
  if (browser.userAgentData?.mobile) return true;
  if (/Android|iPhone|iPad|iPod|Mobile|HarmonyOS/i.test(browser.userAgent)) return true;
  return /Macintosh/.test(browser.userAgent) && (browser.maxTouchPoints ?? 0) > 1;
}
