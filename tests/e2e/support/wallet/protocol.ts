/**
 * What travels between the page's provider (injected.ts) and the wallet in Node (testWallet.ts): one request in,
 * one answer out. Answers carry errors as data, because an exposed binding that throws reaches the page as a
 * plain Error without the EIP-1193 code.
 */

/** EIP-1193 RequestArguments. */
export interface WalletRequest {
  method: string;
  params?: unknown;
}

import type { RpcErrorShape } from '../../../../src/dev/simulatedWallet';

export type { RpcErrorShape };

export type WalletAnswer = { ok: true; result: unknown } | { ok: false; error: RpcErrorShape };

/** EIP-6963 provider info, plus how the page side reaches Node. */
export interface InjectOptions {
  /** Name of the exposed binding that answers requests. */
  bindingName: string;
  /** Name of the window property through which Node emits provider events into the page. */
  controlName: string;
  uuid: string;
  name: string;
  rdns: string;
  icon: string;
  /** Also install the provider as window.ethereum (same object, so discovery lists it once). */
  setWindowEthereum: boolean;
}

/** The page-side handle Node calls through page.evaluate to emit events. */
export interface PageControl {
  /** Calls the provider's listeners for the event; returns how many there were. */
  emit(event: string, payload: unknown): number;
  listenerCount(event: string): number;
}
