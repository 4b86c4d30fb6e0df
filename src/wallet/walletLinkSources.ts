/**
 * Where each wallet of walletLinks.ts documents its link format: kept apart so that members never download it
 * (only the tests and readers of the code need it).
 */
export const WALLET_LINK_SOURCES: Readonly<Record<string, string>> = {
  metamask: 'https://docs.metamask.io/sdk/guides/use-deeplinks (link.metamask.io/dapp/{dappUrl}, the address without its scheme)',
  trust: 'https://developer.trustwallet.com/developer/develop-for-trust/deeplinking (open_url, coin_id 60 is Ethereum’s SLIP-44)',
  tokenpocket: 'https://help.tokenpocket.pro/developer-en/wallet/pull-up-wallet-with-deeplink ("opening DApp"; the params as tronprotocol/tronwallet-adapter packages/adapters/tokenpocket/src/utils.ts sends them)',
  imtoken: 'https://imtoken.gitbook.io/developers/products/deep-linking (navigate/DappView, url pre-encoded)',
  okx: 'https://web3.okx.com/build/docs/waas/app-universal-link (okx://wallet/dapp/url inside the download link)',
  bitget: 'https://web3.bitget.com/en/docs/guide/mobile/Deeplink.html (BKConnect action=dapp; Android takes only the https form)',
  coinbase: 'https://docs.cdp.coinbase.com/coinbase-wallet/developer-guidance/mobile-dapp-integration (go.cb-w.com/dapp?cb_url=)',
  phantom: 'https://docs.phantom.com/phantom-deeplinks/other-methods/browse (browse/<url>?ref=<url>)',
};
