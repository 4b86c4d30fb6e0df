/**
 * The wallet machine's path events as things that happen to the rendered /login page, and what the member must
 * see in each wallet state. A path event becomes a click (by role and accessible name), an answer or an error of
 * the fake wallet, a provider event, a discovery result, or a step of the simulated clock.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import type { ProviderInfo, WalletContext } from '../../../machines/wallet/walletMachine';
import { walletMachine } from '../../../machines/wallet/walletMachine';
import { selectDappParam } from '../../../src/app/selectors';
import { REMEMBERED_WALLET_KEY } from '../../../src/storage/keys';
import { UnknownWalletError } from '../../../src/wallet/errors';
import type { FakeEvent, ProviderErrorInit } from '../../support/fakeEip1193Provider';
import { testDappParam } from '../../support/fakeApi';
import type { ModelPath, PathStep } from '../../../scripts/machineGraph/modelPaths';
import type { RenderAppOptions, RenderedApp, WalletRequestMethod } from './renderApp';
import { defaultWallets, walletRequestMethods } from './renderApp';
import type { StepMapper, StepMapping } from './uiPathPlan';
import { expectAlerts, expectButton, expectNoButton, expectStatus, translated } from './screenQueries';

export type WalletUiAction =
  | { kind: 'startEagerly' }
  | { kind: 'connect' }
  | { kind: 'choose'; walletName: string }
  | { kind: 'cancel' }
  | { kind: 'disconnect' }
  | { kind: 'emit'; event: FakeEvent; args: unknown[] }
  | { kind: 'discover'; ids: string[] }
  | { kind: 'discoveryFails'; error: unknown }
  | { kind: 'walletArrives' }
  | { kind: 'walletAnswers'; method: WalletRequestMethod; value: unknown }
  | { kind: 'walletFails'; method: WalletRequestMethod; error: ProviderErrorInit }
  | { kind: 'clock'; ms: number };

/** The wallet request behind each wallet actor of the machine. */
const requestOfActor: Record<string, WalletRequestMethod> = {
  readAccounts: 'eth_accounts',
  requestAccounts: 'eth_requestAccounts',
  readChainId: 'eth_chainId',
  switchChain: 'wallet_switchEthereumChain',
  addChain: 'wallet_addEthereumChain',
};

/** The provider error a wallet throws for each error the model names (src/wallet/errors.ts maps them back). */
export const providerErrorOf: Record<string, ProviderErrorInit> = {
  UserRejectedError: { code: 4001, message: 'User rejected the request.' },
  RequestPendingError: { code: -32002, message: "Request of type 'wallet_requestPermissions' already pending. Please wait." },
  UnrecognizedChainError: { code: 4902, message: 'Unrecognized chain ID "0x38". Try adding the chain using wallet_addEthereumChain first.' },
  UnknownWalletError: { code: -32603, message: 'Internal JSON-RPC error.' },
  UnsupportedMethodError: { code: 4200, message: 'The Provider does not support the requested method.' },
};

const walletIds = new Map(defaultWallets.map((wallet) => [wallet.id, wallet.name]));
const chainName = testDappParam.chain.chainName;

function delayOf(type: string): number {
  const name = /^xstate\.after\.([^.]+)\./.exec(type)?.[1] ?? '';
  const delay = (walletMachine.implementations.delays as Record<string, unknown>)[name];
  if (typeof delay !== 'number') throw new Error(`unknown wallet delay "${name}"`);
  return delay;
}

const unmapped = (reason: string): StepMapping<WalletUiAction> => ({ kind: 'unmapped', reason });
const action = (value: WalletUiAction): StepMapping<WalletUiAction> => ({ kind: 'action', action: value });

/** How a wallet path event is produced on the /login page. */
export const mapWalletStep: StepMapper<WalletUiAction> = (step, { index }) => {
  const event = step.event as { type: string } & Record<string, unknown>;
  const type = event.type;
  switch (type) {
    case 'app.connectEagerly':
      // The wallet remembered from the visit before is in storage when the page starts (walletRenderOptions).
      return index === 0 ? action({ kind: 'startEagerly' }) : unmapped('the app connects eagerly only at start');
    case 'user.connect':
      return event.chainId === testDappParam.chainId && isDeepStrictEqual(event.chainParams, testDappParam.chain)
        ? action({ kind: 'connect' })
        : unmapped('the page always asks for chain 56 with the chain params of dappParam');
    case 'user.chooseProvider': {
      const walletName = walletIds.get(String(event.providerId));
      return walletName ? action({ kind: 'choose', walletName }) : unmapped('there is no button for a wallet that did not announce itself');
    }
    case 'user.cancel':
      return action({ kind: 'cancel' });
    case 'user.disconnect':
      return action({ kind: 'disconnect' });
    case 'provider.accountsChanged':
      return action({ kind: 'emit', event: 'accountsChanged', args: [event.accounts] });
    case 'provider.chainChanged':
      return action({ kind: 'emit', event: 'chainChanged', args: [event.chainId] });
    case 'provider.connect':
      return action({ kind: 'emit', event: 'connect', args: [{ chainId: event.chainId }] });
    case 'provider.disconnect':
      return action({ kind: 'emit', event: 'disconnect', args: [event.error] });
    case 'provider.detected':
      return action({ kind: 'walletArrives' });
    case 'xstate.done.actor.findProviders': {
      const ids = (event.output as ProviderInfo[]).map((provider) => provider.id);
      return ids.every((id) => walletIds.has(id)) ? action({ kind: 'discover', ids }) : unmapped('a wallet the test page does not have');
    }
    case 'xstate.error.actor.findProviders': {
      const name = (event.error as { name?: string }).name;
      return name === 'UnknownWalletError'
        ? action({ kind: 'discoveryFails', error: new UnknownWalletError() })
        : unmapped(`discovery cannot fail with ${String(name)}`);
    }
    default:
      break;
  }
  const done = /^xstate\.done\.actor\.(.+)$/.exec(type)?.[1];
  const failed = /^xstate\.error\.actor\.(.+)$/.exec(type)?.[1];
  const method = requestOfActor[done ?? failed ?? ''];
  if (method && done) return action({ kind: 'walletAnswers', method, value: event.output });
  if (method && failed) {
    const name = String((event.error as { name?: string }).name);
    const error = providerErrorOf[name];
    return error ? action({ kind: 'walletFails', method, error }) : unmapped(`no wallet answer makes the app read ${name}`);
  }
  if (type.startsWith('xstate.after.')) return action({ kind: 'clock', ms: delayOf(type) });
  return unmapped('not a wallet, member or timer event');
};

/** How the app is rendered for a wallet path: every wallet request and every discovery waits for the path. */
export function walletRenderOptions(path: ModelPath): RenderAppOptions {
  const first = path.steps[0]?.event as { type: string; providerId?: string } | undefined;
  return {
    path: '/login',
    connectEagerly: first?.type === 'app.connectEagerly',
    ...(first?.type === 'app.connectEagerly' && first.providerId ? { stored: { [REMEMBERED_WALLET_KEY]: JSON.stringify(first.providerId) } } : {}),
    discovery: 'manual',
    holdWalletRequests: walletRequestMethods,
  };
}

async function waitForListener(app: RenderedApp, event: FakeEvent): Promise<void> {
  // The wallet actors subscribe once the wallet runtime module has loaded: wait for the listener before emitting.
  await waitFor(() => expect(app.activeProvider().listenerCount(event)).toBeGreaterThan(0), { interval: 5 });
}

/**
 * Produces one wallet path event through the page.
 *
 * @param app - The rendered app.
 * @param action - What to do.
 */
export async function performWalletAction(app: RenderedApp, action: WalletUiAction): Promise<void> {
  switch (action.kind) {
    case 'startEagerly':
      return;
    case 'connect': {
      // The page asks for the chain of app config, so the member connects once dappParam is in.
      await waitFor(() => expect(selectDappParam(app.actors.config.getSnapshot())).not.toBeNull(), { interval: 5 });
      const name = app.actors.wallet.getSnapshot().matches('active') ? `Switch to ${chainName}` : 'Connect wallet';
      await app.user.click(screen.getByRole('button', { name }));
      return;
    }
    case 'choose':
      await app.user.click(screen.getByRole('button', { name: action.walletName }));
      return;
    case 'cancel': {
      // The member's own switch is left with "Not now"; every other wait with "Cancel".
      const name = app.actors.wallet.getSnapshot().matches('switchingManually') ? 'Not now' : 'Cancel';
      await app.user.click(screen.getByRole('button', { name }));
      return;
    }
    case 'disconnect':
      await app.user.click(screen.getByRole('button', { name: 'Disconnect' }));
      return;
    case 'emit': {
      await waitForListener(app, action.event);
      const provider = app.activeProvider();
      act(() => provider.emit(action.event, ...action.args));
      return;
    }
    case 'discover':
      await app.discovery.announce(action.ids);
      return;
    case 'discoveryFails':
      await app.discovery.fail(action.error);
      return;
    case 'walletArrives':
      await app.discovery.walletArrives();
      return;
    case 'walletAnswers':
      (await app.walletRequests.next(action.method)).resolve(action.value);
      return;
    case 'walletFails':
      (await app.walletRequests.next(action.method)).reject(action.error);
      return;
    case 'clock':
      act(() => app.clock.increment(action.ms));
      return;
  }
}

/** 0x7099…79C8, as ShortAddress shows an address. */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/**
 * Asserts what the member sees of the wallet in the given machine state (throws at the first difference).
 *
 * @param app - The rendered app.
 * @param value - The wallet machine's state value.
 * @param context - The wallet machine's context.
 */
export function expectWalletView(app: RenderedApp, value: PathStep['value'], context: WalletContext): void {
  const t = translated(app);
  const errorText = context.error ? t(`wallet.errors.${context.error.name}`, { chain: chainName }) : null;
  const cancelWait = (message: string) => {
    expectStatus(message);
    expectButton('Cancel');
    expectNoButton('Connect wallet');
  };
  const idle = typeof value === 'object' ? value.idle : undefined;
  if (idle === 'ready' || idle === 'noWallet') {
    expectButton('Connect wallet');
    expectAlerts(errorText ? [errorText] : []);
    return;
  }
  if (value === 'switchingManually') {
    expectStatus(t('wallet.prompts.switchManuallyTitle', { chain: chainName }));
    expect(screen.getByText(t('wallet.prompts.switchManually', { chain: chainName }))).toBeTruthy();
    expectButton(t('wallet.actions.notNow'));
    expectNoButton('Connect wallet');
    expectNoButton('Sign in');
    return;
  }
  if (value === 'switchingChain') return cancelWait(t('wallet.prompts.switching', { chain: chainName }));
  if (value === 'addingChain') return cancelWait(t('wallet.prompts.adding', { chain: chainName }));
  if (value === 'active') {
    const [address] = context.accounts;
    expect(screen.getByText(t('wallet.status.connected'))).toBeTruthy();
    if (address) {
      // Shown short, with the whole address as the title and as text for screen readers.
      const shown = screen.getByTitle(address);
      expect(within(shown).getByText(shortAddress(address))).toBeTruthy();
      expect(within(shown).getByText(address)).toBeTruthy();
    }
    expectAlerts(errorText ? [errorText] : []);
    if (context.chainId === testDappParam.chainId) {
      expectButton('Sign in');
      expectNoButton(`Switch to ${chainName}`);
    } else {
      expectButton(`Switch to ${chainName}`);
      expectNoButton('Sign in');
      expect(screen.getByText(t('wallet.status.wrongChain', { chain: chainName }))).toBeTruthy();
    }
    return;
  }
  const activating = typeof value === 'object' ? value.activating : undefined;
  switch (activating) {
    case 'discovering':
      return cancelWait(t('wallet.prompts.discovering'));
    case 'searching':
      cancelWait(t('wallet.prompts.discovering'));
      expect(screen.getByText(t('wallet.prompts.searchingDetail'))).toBeTruthy();
      return;
    case 'choosingProvider':
      expect(screen.getByText(t('wallet.prompts.chooseWallet'))).toBeTruthy();
      for (const provider of context.providers) expectButton(provider.name);
      expectButton('Cancel');
      return;
    case 'awaitingWallet':
      return cancelWait(t('wallet.prompts.openWallet'));
    case 'requestingAccounts':
    case 'readingAccounts':
    case 'readingChain':
      return cancelWait(t('wallet.prompts.confirmInWallet'));
    default:
      throw new Error(`no view known for wallet state ${JSON.stringify(value)}`);
  }
}

/**
 * Waits until the app's wallet machine is in the step's state with the step's context, and the page shows it.
 *
 * @param app - The rendered app.
 * @param step - The path step just produced.
 */
export async function expectWalletStep(app: RenderedApp, step: Pick<PathStep, 'value' | 'context'> & { event?: { type: string } }): Promise<void> {
  await waitFor(
    () => {
      const snapshot = app.actors.wallet.getSnapshot();
      expect(snapshot.value).toEqual(step.value);
      expect(snapshot.context).toEqual(step.context);
      expectWalletView(app, step.value, step.context as WalletContext);
      // The wallet connected is the one to reconnect to at the next start; one the member disconnected is not.
      const remembered = app.browserStorage.readJson(REMEMBERED_WALLET_KEY);
      if (step.value === 'active') expect(remembered).toBe((step.context as WalletContext).providerId);
      if (step.event?.type === 'user.disconnect') expect(remembered).toBeUndefined();
    },
    { interval: 5 },
  );
}
