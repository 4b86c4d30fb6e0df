/**
 * Narrow selectors over the root actors' snapshots: each returns one value that a route renders. Views are
 * named after what the member sees, and derive from the machine state only (no copies of flow state).
 */
import type { SnapshotFrom } from 'xstate';
import type { authMachine } from '../../machines/auth/authMachine';
import type { configMachine } from '../../machines/config/configMachine';
import type { walletMachine } from '../../machines/wallet/walletMachine';
import { loadedClientContract } from '../api/contractLoader';
import type { DappParam } from '../../api-schema/dapp';

type WalletSnapshot = SnapshotFrom<typeof walletMachine>;
type AuthSnapshot = SnapshotFrom<typeof authMachine>;
type ConfigSnapshot = SnapshotFrom<typeof configMachine>;

export type WalletView =
  | 'idle'
  | 'discovering'
  | 'choosingProvider'
  | 'confirmInWallet'
  | 'awaitingWallet'
  | 'switchingChain'
  | 'addingChain'
  | 'active';

/** What the wallet part of a page shows. */
export function selectWalletView(snapshot: WalletSnapshot): WalletView {
  if (snapshot.matches('idle')) return 'idle';
  if (snapshot.matches('active')) return 'active';
  if (snapshot.matches('switchingChain')) return 'switchingChain';
  if (snapshot.matches('addingChain')) return 'addingChain';
  if (snapshot.matches({ activating: 'discovering' })) return 'discovering';
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
  const contract = loadedClientContract();
  if (!raw || !contract) return null;
  if (!parsedConfig.has(raw)) {
    const parsed = contract.dappParamSchema.safeParse(raw);
    parsedConfig.set(raw, parsed.success ? parsed.data : null);
  }
  return parsedConfig.get(raw) ?? null;
}

export const selectWalletAddress = (snapshot: WalletSnapshot) => snapshot.context.accounts[0] ?? null;
export const selectWalletChainId = (snapshot: WalletSnapshot) => snapshot.context.chainId;
export const selectWalletError = (snapshot: WalletSnapshot) => snapshot.context.error;
export const selectWalletProviders = (snapshot: WalletSnapshot) => snapshot.context.providers;
export const selectAuthError = (snapshot: AuthSnapshot) => snapshot.context.error;
export const selectUserInfo = (snapshot: AuthSnapshot) => snapshot.context.userInfo;
export const selectConfigFailed = (snapshot: ConfigSnapshot) => snapshot.matches('failed');
