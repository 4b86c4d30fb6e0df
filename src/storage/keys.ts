/**
 * Local storage keys, exactly as the spec names them (spec section 3, "Local browser storage items"), plus the
 * language key the i18next detector caches under (the spec does not show its name; i18next's default is kept),
 * plus one key of our own: the address the stored tokens belong to (docs/decisions/0008-session-address.md); and,
 * below, the top-up sheet's own and the wallet the member connected last.
 */
export const STORAGE_KEYS = {
  /** The user-info record, as JSON. */
  userInfo: 'USER_INFO_STORE',
  /** The main token, as a JSON string. */
  token: 'TOKEN_STORE',
  /** The temporary token (signed in, recommender not bound yet), as a JSON string. */
  tempToken: 'TEMP_TOKEN_STORE',
  /**
   * Not in the spec: the address the stored token or temporary token was issued to, as a JSON string. Without it a
   * restored temporary token could not tell the wallet's account switch from a reload.
   */
  sessionAddress: 'SESSION_ADDRESS',
  /** The app config, as JSON; read back as {} when absent. */
  dappParam: 'DAPP_PARAM',
  /** The chosen language (i18next-browser-languagedetector cache). */
  language: 'i18nextLng',
} as const;

/**
 * Not in the spec: a top-up the wallet sent that is not credited yet, as JSON { txHash, address }, so a reload or a
 * closed tab resumes following it (machines/credit/topUpMachine.ts). Apart from STORAGE_KEYS, which the sign-in page
 * carries, since only the top-up sheet reads it.
 */
export const PENDING_TOP_UP_KEY = 'PENDING_TOP_UP';

/**
 * Not in the spec: the wallet the member connected last, its EIP-6963 rdns (or 'injected', 'phantom') as a JSON
 * string, so that with several wallets in the page the eager connect at start reconnects to it
 * (machines/wallet/activating.ts). Removed when the member disconnects; kept across sign-outs, as the wallet is.
 */
export const REMEMBERED_WALLET_KEY = 'WALLET_RDNS';

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS] | typeof PENDING_TOP_UP_KEY | typeof REMEMBERED_WALLET_KEY;
