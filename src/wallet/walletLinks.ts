/**
 * Links that open a page in a wallet app's own browser, where the wallet injects its provider: the way forward for
 * a member who opened the app (often an invite link) in a plain phone browser. One row per wallet, each with the
 * documentation its format comes from. Every link carries the whole page address, so the invite code in
 * /login/:inviteCode arrives in the wallet too.
 */
export interface WalletLink {
  id: string;
  /** The wallet's own name, shown untranslated as on its icon. */
  name: string;
  /** Where the wallet documents the format. */
  source: string;
  href: (page: URL) => string;
}

const encoded = (page: URL) => encodeURIComponent(page.href);

export const WALLET_LINKS: readonly WalletLink[] = [
  {
    id: 'metamask',
    name: 'MetaMask',
    source: 'https://docs.metamask.io/sdk/guides/use-deeplinks (link.metamask.io/dapp/{dappUrl}, the address without its scheme)',
    href: (page) => `https://link.metamask.io/dapp/${page.host}${page.pathname}${page.search}${page.hash}`,
  },
  {
    id: 'trust',
    name: 'Trust Wallet',
    source: 'https://developer.trustwallet.com/developer/develop-for-trust/deeplinking (open_url, coin_id 60 is Ethereum’s SLIP-44)',
    href: (page) => `https://link.trustwallet.com/open_url?coin_id=60&url=${encoded(page)}`,
  },
  {
    id: 'tokenpocket',
    name: 'TokenPocket',
    source:
      'https://help.tokenpocket.pro/developer-en/wallet/pull-up-wallet-with-deeplink ("opening DApp"; the params as tronprotocol/tronwallet-adapter packages/adapters/tokenpocket/src/utils.ts sends them)',
    href: (page) =>
      `tpdapp://open?params=${encodeURIComponent(JSON.stringify({ url: page.href, chain: 'ETH', source: page.host }))}`,
  },
  {
    id: 'imtoken',
    name: 'imToken',
    source: 'https://imtoken.gitbook.io/developers/products/deep-linking (navigate/DappView, url pre-encoded)',
    href: (page) => `imtokenv2://navigate/DappView?url=${encoded(page)}`,
  },
  {
    id: 'okx',
    name: 'OKX Wallet',
    source: 'https://web3.okx.com/build/docs/waas/app-universal-link (okx://wallet/dapp/url inside the download link)',
    href: (page) =>
      `https://web3.okx.com/download?deeplink=${encodeURIComponent(`okx://wallet/dapp/url?dappUrl=${encoded(page)}`)}`,
  },
  {
    id: 'bitget',
    name: 'Bitget Wallet',
    source: 'https://web3.bitget.com/en/docs/guide/mobile/Deeplink.html (BKConnect action=dapp; Android takes only the https form)',
    href: (page) => `https://bkcode.vip?action=dapp&url=${encoded(page)}`,
  },
  {
    id: 'coinbase',
    name: 'Coinbase Wallet',
    source: 'https://docs.cdp.coinbase.com/coinbase-wallet/developer-guidance/mobile-dapp-integration (go.cb-w.com/dapp?cb_url=)',
    href: (page) => `https://go.cb-w.com/dapp?cb_url=${encoded(page)}`,
  },
  {
    id: 'phantom',
    name: 'Phantom',
    source: 'https://docs.phantom.com/phantom-deeplinks/other-methods/browse (browse/<url>?ref=<url>)',
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
