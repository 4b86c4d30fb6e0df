import { describe, expect, it } from 'vitest';
import type { StateValue } from 'xstate';
import { authMachine } from '../../machines/auth/authMachine';
import type { AuthContext } from '../../machines/auth/authMachine';
import { walletMachine } from '../../machines/wallet/walletMachine';
import type { WalletContext } from '../../machines/wallet/walletMachine';
import { accountA } from '../../scripts/machineGraph/wallet.model';
import { testDappParam, testMeInfo } from '../../tests/support/fakeApi';
import { loadClientContract } from '../api/contractLoader';
import { selectAuthAcceptsSignIn, selectMember, selectRegisterRedirect, selectSignInRedirect, selectSignInTarget, selectWrongChain } from './selectors';

const signedOutContext: AuthContext = { token: null, tempToken: null, userInfo: null, address: null, draft: null, error: null };

function authAt(value: StateValue, context: Partial<AuthContext> = {}) {
  return authMachine.resolveState({ value, context: { ...signedOutContext, ...context } });
}

const idleWallet: WalletContext = {
  chainId: null,
  accounts: [],
  error: null,
  mode: 'user',
  providers: [{ id: 'io.metamask', name: 'MetaMask' }],
  providerId: 'io.metamask',
  targetChainId: null,
  chainParams: null,
  chainAdded: false,
  rememberedProviderId: null,
};

function walletAt(value: StateValue, context: Partial<WalletContext> = {}) {
  return walletMachine.resolveState({ value, context: { ...idleWallet, ...context } });
}

const onAppChain = walletAt('active', { accounts: [accountA], chainId: 56 });
const onEthereum = walletAt('active', { accounts: [accountA], chainId: 1 });

describe('selectWrongChain', () => {
  it('behavior: true only when the connected wallet is on another chain than the app config names', () => {
    expect(selectWrongChain(onEthereum, testDappParam)).toBe(true);
    expect(selectWrongChain(onAppChain, testDappParam)).toBe(false);
  });

  it('behavior: false while not connected, switching, or without app config', () => {
    expect(selectWrongChain(walletAt('idle', { chainId: 1 }), testDappParam)).toBe(false);
    expect(selectWrongChain(walletAt('switchingChain', { accounts: [accountA], chainId: 1, targetChainId: 56 }), testDappParam)).toBe(false);
    expect(selectWrongChain(onEthereum, null)).toBe(false);
  });
});

describe('the Sign in button: selectSignInTarget then selectAuthAcceptsSignIn, as /login subscribes to them', () => {
  const signedOut = authAt('signedOut');
  const signInOffered = (auth: ReturnType<typeof authAt>, wallet: ReturnType<typeof walletAt>, dappParam: typeof testDappParam | null) =>
    selectAuthAcceptsSignIn(auth, selectSignInTarget(wallet, dappParam));

  it('behavior: offered when signed out with a connected account on the app chain', () => {
    expect(signInOffered(signedOut, onAppChain, testDappParam)).toBe(true);
  });

  it('behavior: not offered on the wrong chain, without account, without config, or while the wallet is busy', () => {
    expect(signInOffered(signedOut, onEthereum, testDappParam)).toBe(false);
    expect(signInOffered(signedOut, walletAt('active', { chainId: 56 }), testDappParam)).toBe(false);
    expect(signInOffered(signedOut, onAppChain, null)).toBe(false);
    expect(signInOffered(signedOut, walletAt({ activating: 'readingChain' }, { accounts: [accountA], chainId: 56 }), testDappParam)).toBe(false);
  });

  it('behavior: not offered when the auth machine would not take user.signIn (signing in, bound, signing out)', () => {
    const draft = { address: accountA, chainId: 56, inviteCode: null, nonce: null, signed: null };
    expect(signInOffered(authAt({ signingIn: 'fetchingNonce' }, { draft }), onAppChain, testDappParam)).toBe(false);
    expect(signInOffered(authAt({ bindRequired: 'editing' }, { tempToken: 't', address: accountA }), onAppChain, testDappParam)).toBe(false);
    expect(signInOffered(authAt({ signedIn: 'ready' }, { token: 't', address: accountA }), onAppChain, testDappParam)).toBe(false);
    expect(signInOffered(authAt('signingOut'), onAppChain, testDappParam)).toBe(false);
  });
});

describe('page redirects', () => {
  const states: [StateValue, ReturnType<typeof selectSignInRedirect>, ReturnType<typeof selectRegisterRedirect>][] = [
    ['signedOut', null, 'login'],
    ['signingOut', null, 'login'],
    [{ signingIn: 'fetchingNonce' }, null, null],
    [{ signingIn: 'signingMessage' }, null, null],
    [{ signingIn: 'verifying' }, null, null],
    [{ bindRequired: 'editing' }, 'register', null],
    [{ bindRequired: 'binding' }, 'register', null],
    [{ signedIn: 'loadingProfile' }, 'returnPath', 'returnPath'],
    [{ signedIn: 'profileFailed' }, 'returnPath', 'returnPath'],
    [{ signedIn: 'ready' }, 'returnPath', 'returnPath'],
  ];

  it.each(states)('behavior: in %j /login goes to %s and /register to %s', (value, fromLogin, fromRegister) => {
    const snapshot = authAt(value);
    expect(selectSignInRedirect(snapshot)).toBe(fromLogin);
    expect(selectRegisterRedirect(snapshot)).toBe(fromRegister);
  });
});

describe('selectMember', () => {
  const member = testMeInfo(accountA);

  it('behavior: null until the contract schemas have loaded, then the record checked against meInfo', async () => {
    const snapshot = authAt({ signedIn: 'ready' }, { token: 't', address: accountA, userInfo: member });
    expect(selectMember(snapshot)).toBeNull();
    await loadClientContract();
    expect(selectMember(snapshot)).toEqual(member);
    // The same record gives the same object, so useSelector does not re-render for nothing.
    expect(selectMember(snapshot)).toBe(selectMember(snapshot));
  });

  it('behavior: a stored record that does not pass the contract is no member record', async () => {
    await loadClientContract();
    const stale = { address: accountA, inviteCode: 'AB12CD34', creditBalance: 12.5 };
    expect(selectMember(authAt({ signedIn: 'ready' }, { token: 't', address: accountA, userInfo: stale }))).toBeNull();
    expect(selectMember(authAt('signedOut'))).toBeNull();
  });
});
