/**
 * The auth machine's path events as things that happen to the rendered sign-in pages (/login, /register, and the
 * member area they lead to), and what the member must see in each auth state. A path event becomes a click or
 * typing (by role and accessible name), an answer of the fake API, an answer of the fake wallet's signature
 * prompt, a wallet event, or a step of the simulated clock.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { authMachine } from '../../../machines/auth/authMachine';
import type { AuthContext, StoredSession } from '../../../machines/auth/authMachine';
import type { ErrorInfo } from '../../../machines/shared/errorInfo';
import { selectDappParam } from '../../../src/app/selectors';
import type { EndpointName } from '../../../api-schema/endpoints';
import { STORAGE_KEYS } from '../../../src/storage/keys';
import { accountA } from '../../../scripts/machineGraph/wallet.model';
import { testDappParam, testMeInfo } from '../../support/fakeApi';
import type { Envelope } from '../../support/fakeApi';
import { fakeSignature } from '../../support/fakeEip1193Provider';
import type { ProviderErrorInit } from '../../support/fakeEip1193Provider';
import type { MachineModel, ModelPath, PathStep } from '../../../scripts/machineGraph/modelPaths';
import { defaultWallets } from './renderApp';
import type { RenderAppOptions, RenderedApp } from './renderApp';
import { expectAlert, expectButton, expectHeading, expectNoButton, expectStatus, translated } from './screenQueries';
import { initialStep } from './uiPathPlan';
import type { StepMapper, StepMapping } from './uiPathPlan';
import { providerErrorOf } from './walletUiSteps';

type ApiAnswer = Envelope | 'network';

export type AuthUiAction =
  | { kind: 'signIn'; address: string }
  | { kind: 'cancel' }
  | { kind: 'signOut' }
  | { kind: 'retry' }
  | { kind: 'bind'; inviteCode: string }
  | { kind: 'walletEvent'; event: 'accountsChanged' | 'disconnect'; args: unknown[] }
  | { kind: 'api'; endpoint: EndpointName; answer: ApiAnswer }
  | { kind: 'signature'; answer: { value: string } | { error: ProviderErrorInit } }
  | { kind: 'clock'; ms: number }
  | { kind: 'appShown' };

/** The API calls the auth actors make, each answered by the test at the step that settles it. */
export const authEndpoints: readonly EndpointName[] = ['loginNonce', 'memberSignLogin', 'bindRecommendRelation', 'meInfo', 'logout'];

/** The API call in flight in each auth state that waits on one: an answer of 1002 to it is server.tokenExpired. */
const callInFlight: Record<string, EndpointName> = {
  [JSON.stringify({ signingIn: 'fetchingNonce' })]: 'loginNonce',
  [JSON.stringify({ signingIn: 'verifying' })]: 'memberSignLogin',
  [JSON.stringify({ bindRequired: 'binding' })]: 'bindRecommendRelation',
  [JSON.stringify({ signedIn: 'loadingProfile' })]: 'meInfo',
  [JSON.stringify('signingOut')]: 'logout',
};

/** The envelope a step's `{ code, result? }` output comes from; -1 is the client's own code for a failed fetch. */
function envelopeOf(output: { code: number; result?: unknown }): ApiAnswer {
  if (output.code === -1) return 'network';
  return output.code === 0 && output.result !== undefined ? { code: 0, result: output.result } : { code: output.code };
}

function delayOf(type: string): number {
  const name = /^xstate\.after\.([^.]+)\./.exec(type)?.[1] ?? '';
  const delay = (authMachine.implementations.delays as Record<string, unknown>)[name];
  if (typeof delay !== 'number') throw new Error(`unknown auth delay "${name}"`);
  return delay;
}

/** The invite code a path signs in with: the page reads it from its URL (/login/:inviteCode). */
export function inviteCodeOf(path: ModelPath): string | null {
  const signIn = path.steps.find((step) => step.event.type === 'user.signIn')?.event as { inviteCode?: string | null } | undefined;
  return signIn?.inviteCode ?? null;
}

const unmapped = (reason: string): StepMapping<AuthUiAction> => ({ kind: 'unmapped', reason });
const action = (value: AuthUiAction): StepMapping<AuthUiAction> => ({ kind: 'action', action: value });

/** How an auth path event is produced through the sign-in pages. */
export const mapAuthStep: StepMapper<AuthUiAction> = (step, { path, previous, initial }) => {
  const event = step.event as { type: string } & Record<string, unknown>;
  const type = event.type;
  switch (type) {
    case 'user.signIn':
      if (event.chainId !== testDappParam.chainId) return unmapped('the page signs in on the chain of app config only');
      if ((event.inviteCode ?? null) !== inviteCodeOf(path)) return unmapped('the invite code comes from the URL, and this path signs in with two');
      return action({ kind: 'signIn', address: String(event.address) });
    case 'user.bind':
      return action({ kind: 'bind', inviteCode: String(event.inviteCode) });
    case 'user.cancel':
      return action({ kind: 'cancel' });
    case 'user.signOut':
      return action({ kind: 'signOut' });
    case 'user.retry':
      return action({ kind: 'retry' });
    case 'wallet.accountChanged':
      return action({ kind: 'walletEvent', event: 'accountsChanged', args: [[event.address]] });
    case 'wallet.disconnected':
      return action({ kind: 'walletEvent', event: 'disconnect', args: [{ code: 4900, message: 'Disconnected' }] });
    case 'server.tokenExpired': {
      const endpoint = callInFlight[JSON.stringify((previous ?? initial).value)];
      return endpoint
        ? action({ kind: 'api', endpoint, answer: { code: 1002 } })
        : unmapped('only an API answer of 1002 ends the session, and no call is in flight in this state');
    }
    case 'xstate.done.actor.fetchNonce':
      return action({ kind: 'api', endpoint: 'loginNonce', answer: envelopeOf(event.output as { code: number }) });
    case 'xstate.done.actor.signMessage':
      // The page signs a real EIP-4361 message; the wallet answers with a well-formed signature.
      return action({ kind: 'signature', answer: { value: fakeSignature } });
    case 'xstate.error.actor.signMessage': {
      const error = providerErrorOf[String((event.error as { name?: string }).name)];
      return error ? action({ kind: 'signature', answer: { error } }) : unmapped('no wallet answer makes the app read this error');
    }
    case 'xstate.done.actor.verifySignature': {
      const output = event.output as { code: number; auth: string; isFinishedBind: boolean };
      const answer: ApiAnswer =
        output.code === 0 ? { code: 0, result: { auth: output.auth, isFinishedBind: output.isFinishedBind } } : envelopeOf(output);
      return action({ kind: 'api', endpoint: 'memberSignLogin', answer });
    }
    case 'xstate.done.actor.bindRecommender':
      return action({ kind: 'api', endpoint: 'bindRecommendRelation', answer: envelopeOf(event.output as { code: number }) });
    case 'xstate.done.actor.loadUserInfo': {
      const output = event.output as { code: number; result?: { address: string } };
      if (output.code === 1002) return unmapped('the API client reports 1002 as server.tokenExpired before the answer reaches loadUserInfo');
      const answer = output.code === 0 && output.result ? { code: 0, result: testMeInfo(output.result.address) } : envelopeOf(output);
      return action({ kind: 'api', endpoint: 'meInfo', answer });
    }
    case 'xstate.done.actor.revokeToken':
      return action({ kind: 'api', endpoint: 'logout', answer: envelopeOf(event.output as { code: number }) });
    case 'xstate.error.actor.revokeToken':
      return unmapped('the API client never rejects: a failed logout is an answer with a code');
    case 'app.profileShown':
      // The member pages that show the record send it when the wallet browser shows the app again (useFreshProfile).
      return action({ kind: 'appShown' });
    case 'app.refreshProfile':
      return unmapped('sent by the withdrawal sheet when money moved, not by the sign-in pages (tests/ui/withdraw.uiPaths.test.tsx drives it)');
    default:
      return type.startsWith('xstate.after.') ? action({ kind: 'clock', ms: delayOf(type) }) : unmapped('not a member, wallet or server event');
  }
};

function storedEntries(session: StoredSession): Record<string, string> {
  const entries: Record<string, string> = {};
  if (session.token) entries[STORAGE_KEYS.token] = JSON.stringify(session.token);
  if (session.tempToken) entries[STORAGE_KEYS.tempToken] = JSON.stringify(session.tempToken);
  if (session.userInfo) entries[STORAGE_KEYS.userInfo] = JSON.stringify(session.userInfo);
  if (session.address) entries[STORAGE_KEYS.sessionAddress] = JSON.stringify(session.address);
  return entries;
}

/**
 * How the app is rendered for an auth path: the session of the model's input in storage, the page its start state
 * shows, a wallet already connected on chain 56 (eager connect), and every auth call held for the path to answer.
 */
export function authRenderOptions(model: MachineModel, path: ModelPath): RenderAppOptions {
  const inviteCode = inviteCodeOf(path);
  const suffix = inviteCode ? `/${inviteCode}` : '';
  const start = JSON.stringify(initialStep(model).step.value);
  const page = start.includes('signedIn') ? '/home' : start.includes('bindRequired') ? `/register${suffix}` : `/login${suffix}`;
  return {
    path: page,
    stored: storedEntries((model.input ?? { token: null, tempToken: null, userInfo: null, address: null }) as StoredSession),
    connectEagerly: true,
    wallets: defaultWallets.map((wallet) => ({ ...wallet, options: { chainId: 56, accounts: [accountA], grantAccounts: [accountA] } })),
    holdWalletRequests: ['personal_sign'],
    api: (api) => {
      for (const endpoint of authEndpoints) api.hold(endpoint);
    },
  };
}

/** Waits for the eager connect of authRenderOptions to finish, so wallet events reach auth before any step. */
export async function waitForConnectedWallet(app: RenderedApp): Promise<void> {
  await waitFor(() => expect(app.actors.wallet.getSnapshot().value).toBe('active'), { interval: 5 });
}

async function emitFromWallet(app: RenderedApp, event: 'accountsChanged' | 'disconnect', args: unknown[]): Promise<void> {
  // The wallet actors subscribe once the wallet runtime module has loaded: wait for the listener before emitting.
  await waitFor(() => expect(app.activeProvider().listenerCount(event)).toBeGreaterThan(0), { interval: 5 });
  const provider = app.activeProvider();
  act(() => provider.emit(event, ...args));
}

/** Gets the page to "Sign in" with `address` on chain 56: reconnects the wallet or switches its account if needed. */
async function readyToSignIn(app: RenderedApp, address: string): Promise<void> {
  await waitFor(() => expect(selectDappParam(app.actors.config.getSnapshot())).not.toBeNull(), { interval: 5 });
  if (app.actors.wallet.getSnapshot().matches('idle')) {
    await app.user.click(screen.getByRole('button', { name: 'Connect wallet' }));
    await waitForConnectedWallet(app);
  }
  if (app.actors.wallet.getSnapshot().context.accounts[0] !== address) await emitFromWallet(app, 'accountsChanged', [[address]]);
  await waitFor(() => expectButton('Sign in'), { interval: 5 });
}

/**
 * Produces one auth path event through the pages.
 *
 * @param app - The rendered app.
 * @param action - What to do.
 */
export async function performAuthAction(app: RenderedApp, action: AuthUiAction): Promise<void> {
  switch (action.kind) {
    case 'signIn':
      await readyToSignIn(app, action.address);
      await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
      return;
    case 'cancel':
      await app.user.click(screen.getByRole('button', { name: 'Cancel' }));
      return;
    case 'signOut':
      if (!app.router.state.location.pathname.startsWith('/register') && app.router.state.location.pathname !== '/me') {
        // A member signs out from the Me page, reached through the tab bar.
        await app.user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Me' }));
        await waitFor(() => expectHeading('Me'), { interval: 5 });
      }
      await app.user.click(screen.getByRole('button', { name: 'Sign out' }));
      return;
    case 'retry':
      await app.user.click(screen.getByRole('button', { name: 'Try again' }));
      return;
    case 'bind': {
      const field = screen.getByRole('textbox', { name: 'Invite code' });
      await app.user.clear(field);
      await app.user.type(field, action.inviteCode);
      await app.user.click(screen.getByRole('button', { name: 'Bind' }));
      return;
    }
    case 'walletEvent':
      await emitFromWallet(app, action.event, action.args);
      return;
    case 'api': {
      const call = await app.api.next(action.endpoint);
      if (action.answer === 'network') call.failNetwork();
      else call.answer(action.answer);
      return;
    }
    case 'signature': {
      const request = await app.walletRequests.next('personal_sign');
      if ('value' in action.answer) request.resolve(action.answer.value);
      else request.reject(action.answer.error);
      return;
    }
    case 'clock': {
      const { ms } = action;
      act(() => app.clock.increment(ms));
      return;
    }
    case 'appShown':
      // The pages send app.profileShown a turn after the event (useFreshProfile: after the timers a frozen page owes).
      await act(async () => {
        document.dispatchEvent(new Event('visibilitychange'));
        await new Promise((resolve) => setTimeout(resolve, 0));
      });
      return;
  }
}

/** The text key the member reads for an error auth keeps (spec section 8 and docs/architecture.md, "Errors"). */
export function authErrorKey(error: ErrorInfo): string {
  if (error.name === 'ApiError') return `Common.${String(error.code)}`;
  if (error.name === 'WalletChangedError' || error.name === 'InviteCodeInvalidError') return `auth.errors.${error.name}`;
  return `wallet.errors.${error.name}`;
}

/**
 * Asserts what the member sees in the given auth state (throws at the first difference).
 *
 * @param app - The rendered app.
 * @param value - The auth machine's state value.
 * @param context - The auth machine's context.
 */
export function expectAuthView(app: RenderedApp, value: PathStep['value'], context: AuthContext): void {
  const t = translated(app);
  const pathname = app.router.state.location.pathname;
  const errorText = context.error ? t(authErrorKey(context.error)) : null;
  const state = JSON.stringify(value);
  const cancelWait = (message: string) => {
    expect(pathname).toMatch(/^\/login/);
    expectStatus(message);
    expectButton('Cancel');
    expectNoButton('Sign in');
  };
  switch (state) {
    case '"signedOut"': {
      expect(pathname).toMatch(/^\/login/);
      expectHeading(t('login:title'));
      if (errorText) expectAlert(errorText);
      const wallet = app.actors.wallet.getSnapshot();
      if (wallet.matches('active') && wallet.context.chainId === testDappParam.chainId) expectButton('Sign in');
      if (wallet.matches('idle')) expectButton('Connect wallet');
      return;
    }
    case '"signingOut"':
      expect(pathname).toMatch(/^\/login/);
      expectHeading(t('login:title'));
      expectNoButton('Sign in');
      expectNoButton('Connect wallet');
      return;
    case JSON.stringify({ signingIn: 'fetchingNonce' }):
      return cancelWait(t('login:signIn.preparing'));
    case JSON.stringify({ signingIn: 'signingMessage' }):
      return cancelWait(t('login:signIn.busy'));
    case JSON.stringify({ signingIn: 'verifying' }):
      return cancelWait(t('login:signIn.verifying'));
    case JSON.stringify({ bindRequired: 'editing' }): {
      expect(pathname).toMatch(/^\/register/);
      expectHeading(t('register:title'));
      const field = screen.getByRole('textbox', { name: t('register:inviteCode.label') });
      expectButton('Bind');
      expectButton('Sign out');
      if (errorText) {
        expectAlert(errorText);
        expect(field.getAttribute('aria-invalid')).toBe('true');
        expect(screen.getByRole('alert').id).toBe(field.getAttribute('aria-describedby'));
      } else {
        expect(screen.queryAllByRole('alert')).toEqual([]);
      }
      return;
    }
    case JSON.stringify({ bindRequired: 'binding' }):
      expect(pathname).toMatch(/^\/register/);
      expectStatus(t('register:bind.busy'));
      expectButton('Cancel');
      expectNoButton('Bind');
      return;
    default:
      break;
  }
  if (state.startsWith('{"signedIn"')) {
    // A member lands on /home, or back on the member page the sign-in came from.
    expect(screen.getByRole('navigation', { name: t('nav.label') })).toBeTruthy();
    if (pathname === '/me') return expectHeading(t('me:title'));
    expect(pathname).toBe('/home');
    expectHeading(t('home:title'));
    if (state === JSON.stringify({ signedIn: 'loadingProfile' })) {
      // A first read shows the loading state; a read again (the record kept a while) shows the kept record meanwhile.
      if (screen.queryByText(t('home:welcome')) === null) expectStatus(t('status.loading'));
    }
    if (['fresh', 'stale'].some((kept) => state === JSON.stringify({ signedIn: { ready: kept } }))) expect(screen.getByText(t('home:welcome'))).toBeTruthy();
    if (state === JSON.stringify({ signedIn: 'profileFailed' })) {
      if (errorText) expectAlert(errorText);
      expectButton('Try again');
    }
    return;
  }
  throw new Error(`no view known for auth state ${state}`);
}

/** The parts of the auth context the UI run must agree on with the path (the signed message is the page's own). */
function contextFacts(context: AuthContext) {
  return {
    token: context.token,
    tempToken: context.tempToken,
    address: context.address,
    error: context.error,
    userAddress: context.userInfo?.address ?? null,
    draft: context.draft && {
      address: context.draft.address,
      chainId: context.draft.chainId,
      inviteCode: context.draft.inviteCode,
      nonce: context.draft.nonce,
      signed: context.draft.signed !== null,
    },
  };
}

/**
 * Waits until the app's auth machine is in the step's state, agrees with the step's context, and the page shows it.
 *
 * @param app - The rendered app.
 * @param step - The path step just produced.
 */
export async function expectAuthStep(app: RenderedApp, step: Pick<PathStep, 'value' | 'context'>): Promise<void> {
  await waitFor(
    () => {
      const snapshot = app.actors.auth.getSnapshot();
      expect(snapshot.value).toEqual(step.value);
      expect(contextFacts(snapshot.context)).toEqual(contextFacts(step.context as AuthContext));
      expectAuthView(app, step.value, step.context as AuthContext);
    },
    { interval: 5 },
  );
}
