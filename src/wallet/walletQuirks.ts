/**
 * The wallet quirks the app knows, in one table beside the error mapping (errors.ts): what a real wallet does that
 * the standards do not say, where that is documented, and what the app does about it. Answer rows are live: the
 * tests (walletQuirks.test.ts) feed each sample answer through toWalletError and the wallet machine and check the
 * error and the state it leads to; the page-level rows are walked by the e2e journeys named in `handledBy`.
 */
import type { WalletErrorName } from '../../machines/shared/errorNames';

/** A wallet's answer to a request the app made, as the provider throws it. */
export interface QuirkAnswer {
  code?: number;
  message: string;
  data?: unknown;
}

interface QuirkBase {
  /** Short, stable id (used in test names). */
  id: string;
  wallet: string;
  /** What the wallet does. */
  behaviour: string;
  /** The public report or doc of the behaviour. */
  source: string;
}

/** A wallet answering a chain request in a way the app must read from code and situation, not words alone. */
export interface AnswerQuirk extends QuirkBase {
  kind: 'answer';
  request: 'wallet_switchEthereumChain' | 'wallet_addEthereumChain';
  answer: QuirkAnswer;
  /** What toWalletError makes of the answer. */
  errorName: WalletErrorName;
  /** The wallet machine state the answer leads to from the request's state (switchingChain or addingChain). */
  leadsTo: 'addingChain' | 'switchingManually' | 'activating.awaitingWallet';
}

/** A wallet that reaches the page in a way discovery or the headers must allow for. */
export interface PageQuirk extends QuirkBase {
  kind: 'page';
  /** What the app does, and the e2e journey that shows it. */
  handledBy: string;
}

export type WalletQuirk = AnswerQuirk | PageQuirk;

export const walletQuirks: readonly WalletQuirk[] = [
  {
    id: 'metamask-mobile-wrapped-4902',
    kind: 'answer',
    wallet: 'MetaMask Mobile',
    behaviour: 'An unknown chain is -32603 with the real 4902 in data.originalError.code.',
    source: 'https://github.com/MetaMask/metamask-mobile/issues/2944#issuecomment-976988719',
    request: 'wallet_switchEthereumChain',
    answer: {
      code: -32603,
      message: 'Unrecognized chain ID "0x38". Try adding the chain using wallet_addEthereumChain first.',
      data: { originalError: { code: 4902, message: 'Unrecognized chain ID "0x38".' } },
    },
    errorName: 'UnrecognizedChainError',
    leadsTo: 'addingChain',
  },
  {
    id: 'trust-unrecognized-chain-en',
    kind: 'answer',
    wallet: 'Trust Wallet',
    behaviour: 'An unknown chain is -32603 "Unrecognized chain ID … Try adding the chain", no 4902 anywhere.',
    source: 'https://github.com/wevm/wagmi/issues/4754',
    request: 'wallet_switchEthereumChain',
    answer: { code: -32603, message: 'Unrecognized chain ID "0x38". Try adding the chain using wallet_addEthereumChain first.' },
    errorName: 'UnrecognizedChainError',
    leadsTo: 'addingChain',
  },
  {
    id: 'trust-unrecognized-chain-localised',
    kind: 'answer',
    wallet: 'Trust Wallet (Chinese)',
    behaviour: 'The same -32603 with the message in the member’s language, so no English wording to find.',
    source: 'https://github.com/trustwallet/wallet-core/issues/4464',
    request: 'wallet_switchEthereumChain',
    answer: { code: -32603, message: '无法识别的链 ID "0x38"。请先使用 wallet_addEthereumChain 添加该链。' },
    errorName: 'UnknownWalletError',
    leadsTo: 'addingChain',
  },
  {
    id: 'imtoken-switch-unsupported-4200',
    kind: 'answer',
    wallet: 'imToken before 2.10',
    behaviour: 'wallet_switchEthereumChain is not supported (4200): the member must switch in the wallet.',
    source: 'https://imtoken.gitbook.io/developers/products/webview/rpcs#wallet_switchethereumchain',
    request: 'wallet_switchEthereumChain',
    answer: { code: 4200, message: 'The Provider does not support the requested method.' },
    errorName: 'UnsupportedMethodError',
    leadsTo: 'switchingManually',
  },
  {
    id: 'imtoken-switch-method-not-found',
    kind: 'answer',
    wallet: 'imToken before 2.10 (older builds), other in-app browsers',
    behaviour: 'wallet_switchEthereumChain answers -32601 "method not found".',
    source: 'https://github.com/OffchainLabs/arbitrum-token-bridge/pull/310',
    request: 'wallet_switchEthereumChain',
    answer: { code: -32601, message: 'The method "wallet_switchEthereumChain" does not exist / is not available.' },
    errorName: 'UnsupportedMethodError',
    leadsTo: 'switchingManually',
  },
  {
    id: 'add-chain-unsupported',
    kind: 'answer',
    wallet: 'Wallets without wallet_addEthereumChain',
    behaviour: 'After a -32603 switch, adding the chain answers 4200 / -32601: only a manual switch is left.',
    source: 'https://eips.ethereum.org/EIPS/eip-1193#provider-errors',
    request: 'wallet_addEthereumChain',
    answer: { code: -32601, message: 'Method not found' },
    errorName: 'UnsupportedMethodError',
    leadsTo: 'switchingManually',
  },
  {
    id: 'metamask-pending-request',
    kind: 'answer',
    wallet: 'MetaMask',
    behaviour: 'A second prompt while one is open answers -32002 "already pending"; asking again never helps.',
    source: 'https://github.com/MetaMask/metamask-extension/issues/10584',
    request: 'wallet_switchEthereumChain',
    answer: { code: -32002, message: "Request of type 'wallet_switchEthereumChain' already pending for origin. Please wait." },
    errorName: 'RequestPendingError',
    leadsTo: 'activating.awaitingWallet',
  },
  {
    id: 'webview-inline-script-injection',
    kind: 'page',
    wallet: 'Android WebView wallets (TokenPocket and others)',
    behaviour: 'The provider is injected by appending an inline <script> at document start, which a CSP header with script-src blocks.',
    source: 'https://github.com/TP-Lab/tp-js-sdk/issues/33, https://github.com/MetaMask/metamask-mobile/issues/1931',
    handledBy:
      'The script and style policy is a <meta> in index.html, in force only from where it is parsed (ADR 0007); journey "a wallet that injects by inline script".',
  },
  {
    id: 'metamask-mobile-late-injection',
    kind: 'page',
    wallet: 'MetaMask Mobile',
    behaviour: 'window.ethereum may be set after load, announced by the ethereum#initialized event.',
    source: 'https://github.com/MetaMask/detect-provider#readme',
    handledBy:
      'The wallet machine looks for walletSearchTimeout (searching) and keeps watching from noWallet (watchForProviders); journeys "a wallet that injects after load".',
  },
];
