/**
 * The wallet a request comes from, read off its User-Agent: in-app browsers name themselves there (the app's wallet
 * quirks, src/wallet/walletQuirks.ts, list the ones it knows). A handful of fixed labels, so the metrics' series stay
 * few whatever a client sends.
 */

/** User-Agent tokens, first match wins (a wallet built on another's browser names both: the specific one first). */
const WALLET_TOKENS: readonly (readonly [RegExp, string])[] = [
  [/TokenPocket/i, 'tokenpocket'],
  [/imToken/i, 'imtoken'],
  [/OKApp|OKEx|OKX/i, 'okx'],
  [/BitKeep|Bitget/i, 'bitget'],
  [/SafePal/i, 'safepal'],
  [/Trust\/|TrustWallet/i, 'trust'],
  [/CoinbaseWallet|CoinbaseBrowser/i, 'coinbase'],
  [/Phantom/i, 'phantom'],
  [/MetaMask/i, 'metamask'],
];

/**
 * The wallet label of a User-Agent: a known wallet's name, `browser` for any other, `none` without one.
 *
 * @param userAgent - the request's User-Agent header
 * @returns a label
 * @example
 * walletOf('Mozilla/5.0 (Linux; Android 14) ... TokenPocket/2.1.0'); // 'tokenpocket'
 */
export function walletOf(userAgent: string | undefined): string {
  if (!userAgent) return 'none';
  for (const [token, wallet] of WALLET_TOKENS) if (token.test(userAgent)) return wallet;
  return 'browser';
}
