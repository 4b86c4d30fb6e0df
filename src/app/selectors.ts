/**
 * Narrow selectors over the root actors' snapshots: each returns one value that a route renders. Views are
 * named after what the member sees, and derive from the machine state only (no copies of flow state).
 */
import type { SnapshotFrom } from 'xstate';
import type { authMachine } from '../../machines/auth/authMachine';
import type { configMachine } from '../../machines/config/configMachine';
import type { walletMachine } from '../../machines/wallet/walletMachine';
import { loadedClientContract, loadedConfigContract } from '../api/contractLoader';
import type { DappParam } from '../../api-schema/dapp';
import type { MeInfo } from '../../api-schema/member';

type WalletSnapshot = SnapshotFrom<typeof walletMachine>;
type AuthSnapshot = SnapshotFrom<typeof authMachine>;
type ConfigSnapshot = SnapshotFrom<typeof configMachine>;

export type WalletView =
  | 'idle'
  | 'noWallet'
  | 'discovering'
  | 'searching'
  | 'choosingProvider'
  | 'confirmInWallet'
  | 'awaitingWallet'
  | 'switchingChain'
  | 'addingChain'
  | 'switchingManually'
  | 'active';

/** What the wallet part of a page shows. */
export function selectWalletView(snapshot: WalletSnapshot): WalletView {
  if (snapshot.matches({ idle: 'noWallet' })) return 'noWallet';
  if (snapshot.matches('idle')) return 'idle';
  if (snapshot.matches('active')) return 'active';
  if (snapshot.matches('switchingManually')) return 'switchingManually';
  if (snapshot.matches('switchingChain')) return 'switchingChain';
  if (snapshot.matches('addingChain')) return 'addingChain';
  if (snapshot.matches({ activating: 'discovering' })) return 'discovering';
  if (snapshot.matches({ activating: 'searching' })) return 'searching';
  if (snapshot.matches({ activating: 'choosingProvider' })) return 'choosingProvider';
  if (snapshot.matches({ activating: 'awaitingWallet' })) return 'awaitingWallet';
  return 'confirmInWallet';
}

export type AuthView =
  | 'restoring'
  | 'signedOut'
  | 'fetchingNonce'
  | 'signingMessage'
  | 'verifying'
  | 'bindRequired'
  | 'binding'
  | 'loadingProfile'
  | 'profileFailed'
  | 'signedIn'
  | 'signingOut';

/** What the sign-in part of a page shows, and where the route guard sends the member. */
export function selectAuthView(snapshot: AuthSnapshot): AuthView {
  if (snapshot.matches('restoring')) return 'restoring';
  if (snapshot.matches('signedOut')) return 'signedOut';
  if (snapshot.matches('signingOut')) return 'signingOut';
  if (snapshot.matches({ signingIn: 'fetchingNonce' })) return 'fetchingNonce';
  if (snapshot.matches({ signingIn: 'signingMessage' })) return 'signingMessage';
  if (snapshot.matches({ signingIn: 'verifying' })) return 'verifying';
  if (snapshot.matches({ bindRequired: 'binding' })) return 'binding';
  if (snapshot.matches('bindRequired')) return 'bindRequired';
  if (snapshot.matches({ signedIn: 'loadingProfile' })) return 'loadingProfile';
  if (snapshot.matches({ signedIn: 'profileFailed' })) return 'profileFailed';
  return 'signedIn';
}

/** Coarse access level for route guards. */
export function selectAccess(snapshot: AuthSnapshot): 'none' | 'temporary' | 'member' {
  if (snapshot.matches('signedIn')) return 'member';
  if (snapshot.matches('bindRequired')) return 'temporary';
  return 'none';
}

const parsedConfig = new WeakMap<object, DappParam | null>();

/**
 * The app config when it is complete (fetched, or stored from last time); null until then. A config only enters
 * the context through the config actors, which load the contract first, so the schema is here whenever a config is.
 */
export function selectDappParam(snapshot: ConfigSnapshot): DappParam | null {
  const raw = snapshot.context.dappParam;
  const contract = loadedConfigContract();
  if (!raw || !contract) return null;
  if (!parsedConfig.has(raw)) {
    const parsed = contract.dappParamSchema.safeParse(raw);
    parsedConfig.set(raw, parsed.success ? parsed.data : null);
  }
  return parsedConfig.get(raw) ?? null;
}

/**
 * The member record (meInfo) checked against its contract schema; null before meInfo answered, when the stored
 * record does not pass the schema, or while the contract has not loaded (it has once any API call ran, and the
 * restored session's meInfo call changes the snapshot again after that).
 */
export function selectMember(snapshot: AuthSnapshot): MeInfo | null {
  const raw = snapshot.context.userInfo;
  const contract = loadedClientContract();
  if (!raw || !contract) return null;
  if (!parsedMember.has(raw)) {
    const parsed = contract.endpoints.meInfo.result.safeParse(raw);
    parsedMember.set(raw, parsed.success ? parsed.data : null);
  }
  return parsedMember.get(raw) ?? null;
}

const parsedMember = new WeakMap<object, MeInfo | null>();

/**
 * True when the connected wallet is on another chain than the app's: the wallet machine would accept a connect
 * to the app's chain from `active` (its isTargetChainDifferent guard), so the page offers the switch.
 */
export function selectWrongChain(wallet: WalletSnapshot, dappParam: DappParam | null): boolean {
  if (!dappParam || !wallet.matches('active')) return false;
  return wallet.can({ type: 'user.connect', chainId: dappParam.chainId, chainParams: dappParam.chain });
}

/** The account and chain a sign-in would use: the wallet is active, with an account, on the app's chain. */
export interface SignInTarget {
  address: string;
  chainId: number;
}

/**
 * The wallet's half of "the Sign in button is offered" (the other is selectAuthAcceptsSignIn): a page subscribes
 * to each actor apart, so a wallet change that leaves the target as it was renders nothing.
 */
export function selectSignInTarget(wallet: WalletSnapshot, dappParam: DappParam | null): SignInTarget | null {
  const address = wallet.context.accounts[0];
  const chainId = wallet.context.chainId;
  if (!dappParam || !address || chainId === null || !wallet.matches('active')) return null;
  if (selectWrongChain(wallet, dappParam) || chainId !== dappParam.chainId) return null;
  return { address, chainId };
}

/** Compares two targets by value (useSelector's compare: a new object with the same values is no change). */
export const sameSignInTarget = (a: SignInTarget | null, b: SignInTarget | null): boolean => a?.address === b?.address && a?.chainId === b?.chainId;

/** The auth machine's half: it accepts user.signIn for the target (it does only when signed out). */
export function selectAuthAcceptsSignIn(auth: AuthSnapshot, target: SignInTarget | null): boolean {
  return target !== null && auth.can({ type: 'user.signIn', ...target });
}

/** Where /login sends a member who has a session: back where they came from, or to /register to bind first. */
export function selectSignInRedirect(snapshot: AuthSnapshot): 'returnPath' | 'register' | null {
  if (snapshot.matches('signedIn')) return 'returnPath';
  if (snapshot.matches('bindRequired')) return 'register';
  return null;
}

/** Where /register sends a member who has nothing to bind: to /login without a session, back when bound. */
export function selectRegisterRedirect(snapshot: AuthSnapshot): 'returnPath' | 'login' | null {
  if (snapshot.matches('signedIn')) return 'returnPath';
  if (snapshot.matches('signedOut') || snapshot.matches('restoring') || snapshot.matches('signingOut')) return 'login';
  return null;
}

export const selectWalletAddress = (snapshot: WalletSnapshot) => snapshot.context.accounts[0] ?? null;
export const selectWalletChainId = (snapshot: WalletSnapshot) => snapshot.context.chainId;
export const selectWalletError = (snapshot: WalletSnapshot) => snapshot.context.error;
export const selectWalletProviders = (snapshot: WalletSnapshot) => snapshot.context.providers;
export const selectAuthError = (snapshot: AuthSnapshot) => snapshot.context.error;
/**
 * The raw stored or loaded user info, unchecked.
 *
 * @deprecated Use selectMember, which checks the record against the meInfo contract; no route reads this any more.
 */
export const selectUserInfo = (snapshot: AuthSnapshot) => snapshot.context.userInfo;
export const selectConfigFailed = (snapshot: ConfigSnapshot) => snapshot.matches('failed');
