/**
 * The auth machine's vocabulary: its context, events, and the actors, actions, guards and delays it names in setup
 * (docs/architecture.md, "Machines"). authMachine.ts and the state configs beside it build on this one setup.
 */
import { assign, fromPromise, setup } from 'xstate';
import { notProvided, toErrorInfo } from '../shared/errorInfo';
import type { ErrorInfo } from '../shared/errorInfo';
import { isInviteCode } from '../shared/fieldRules';
import { ApiErrorName } from '../shared/errorNames';
import { Decisions } from '../shared/transitionMeta';
import type { TransitionMeta } from '../shared/transitionMeta';
import { ApiCode } from '../../api-schema/codes';

/** The member record of meInfo; the machine only reads its address. */
export interface UserInfo {
  address: string;
  [field: string]: unknown;
}

/** What an API call answers (docs/API.md "Envelope"); the client turns every failure into a code. */
export interface ApiAnswer<T> {
  code: number;
  result?: T;
}

/** The sign-in answer as the spec reads it; a failed sign-in is { code: -1, auth: '', isFinishedBind: false }. */
export interface SignInResult {
  code: number;
  auth: string;
  isFinishedBind: boolean;
}

export interface NonceAnswer {
  nonce: string;
  issuedAt: string;
  expirationTime: string;
}

export interface SignedMessage {
  message: string;
  signature: string;
}

/** The sign-in in progress: what the member asked for and what each step has produced so far. */
export interface SignInDraft {
  address: string;
  chainId: number;
  inviteCode: string | null;
  nonce: NonceAnswer | null;
  signed: SignedMessage | null;
}

export interface StoredSession {
  token: string | null;
  tempToken: string | null;
  userInfo: UserInfo | null;
  /**
   * The address the stored token belongs to, kept beside the token when it is issued. A restored token without a
   * known address cannot be checked against the wallet, so it is not restored.
   */
  address: string | null;
}

export interface AuthContext extends StoredSession {
  /** The address of the session; a wallet on any other address ends it. */
  draft: SignInDraft | null;
  error: ErrorInfo | null;
}

export type AuthEvent =
  | { type: 'user.signIn'; address: string; chainId: number; inviteCode?: string | null }
  | { type: 'user.bind'; inviteCode: string }
  | { type: 'user.cancel' }
  | { type: 'user.signOut' }
  | { type: 'user.retry' }
  | { type: 'wallet.accountChanged'; address: string }
  | { type: 'wallet.disconnected' }
  | { type: 'server.tokenExpired' }
  | { type: 'app.refreshProfile' }
  /** A page showing the member record opened, or the app was shown again (src/routes/shared/useFreshProfile.ts). */
  | { type: 'app.profileShown' };

/** Envelope code for an unknown, expired or revoked token (docs/API.md "Codes"). */
export const tokenRejectedCode = ApiCode.notSignedIn;

export const apiError = (code: number): ErrorInfo => ({ name: ApiErrorName, code });

export const authSetup = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as StoredSession,
    tags: {} as 'busy',
    transitionMeta: {} as TransitionMeta,
  },
  actors: {
    fetchNonce: fromPromise<ApiAnswer<NonceAnswer>, { address: string }>(async () => notProvided('auth', 'fetchNonce')),
    signMessage: fromPromise<SignedMessage, { address: string; chainId: number; nonce: NonceAnswer }>(async () =>
      notProvided('auth', 'signMessage'),
    ),
    verifySignature: fromPromise<SignInResult, SignedMessage & { inviteCode: string | null }>(async () =>
      notProvided('auth', 'verifySignature'),
    ),
    bindRecommender: fromPromise<ApiAnswer<unknown>, { inviteCode: string }>(async () => notProvided('auth', 'bindRecommender')),
    loadUserInfo: fromPromise<ApiAnswer<UserInfo>>(async () => notProvided('auth', 'loadUserInfo')),
    revokeToken: fromPromise<ApiAnswer<unknown>, { token: string | null }>(async () => notProvided('auth', 'revokeToken')),
  },
  actions: {
    assignDraft: assign((_, params: { address: string; chainId: number; inviteCode: string | null }) => ({
      draft: { ...params, nonce: null, signed: null },
      error: null,
    })),
    assignNonce: assign(({ context }, params: { nonce: NonceAnswer | undefined }) => ({
      draft: context.draft && params.nonce ? { ...context.draft, nonce: params.nonce } : context.draft,
    })),
    assignSigned: assign(({ context }, params: { signed: SignedMessage }) => ({
      draft: context.draft ? { ...context.draft, signed: params.signed } : null,
    })),
    assignTempToken: assign(({ context }, params: { auth: string }) => ({
      tempToken: params.auth,
      address: context.draft?.address ?? context.address,
      draft: null,
    })),
    /** Set-token (spec section 4): the main token is the given value, or the temporary token when none is given. */
    assignToken: assign(({ context }, params: { token?: string }) => ({ token: params.token ?? context.tempToken })),
    assignUserInfo: assign((_, params: { userInfo: UserInfo }) => ({ userInfo: params.userInfo, address: params.userInfo.address })),
    assignError: assign((_, params: { error: ErrorInfo }) => ({ error: params.error })),
    assignThrownError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    clearError: assign({ error: null }),
    clearSession: assign({ token: null, tempToken: null, userInfo: null, address: null, draft: null }),
    storeTempToken: () => {
      // Provided by the app: persists the context's temporary token in TEMP_TOKEN_STORE.
    },
    storeAddress: () => {
      // Provided by the app: persists the context's address, the owner of the stored tokens, beside them.
    },
    storeToken: () => {
      // Provided by the app: persists the context's main token in TOKEN_STORE.
    },
    storeUserInfo: () => {
      // Provided by the app: persists the context's user info in USER_INFO_STORE (spec: setting it persists it).
    },
    removeStoredSession: () => {
      // Provided by the app: removes TOKEN_STORE, TEMP_TOKEN_STORE, USER_INFO_STORE and the stored address.
    },
  },
  guards: {
    hasMainToken: ({ context }) => Boolean(context.token),
    hasTempToken: ({ context }) => Boolean(context.tempToken),
    hasAddress: ({ context }) => Boolean(context.address),
    isApiOk: (_, params: { code: number }) => params.code === 0,
    isTokenRejected: (_, params: { code: number }) => params.code === tokenRejectedCode,
    isSignedInAndBound: (_, params: SignInResult) => params.code === 0 && params.auth !== '' && params.isFinishedBind,
    isSignedIn: (_, params: SignInResult) => params.code === 0 && params.auth !== '',
    isInviteCodeValid: (_, params: { inviteCode: string }) => isInviteCode(params.inviteCode),
    isOtherAccount: ({ context }, params: { address: string }) => {
      const current = context.draft?.address ?? context.address;
      return current !== null && current.toLowerCase() !== params.address.toLowerCase();
    },
  },
  delays: {
    /** A wallet that never shows or answers the signature prompt must not keep the member waiting forever. */
    signatureTimeout: 120_000,
    /** Signing out never waits long on the server: the local session is already gone. */
    signOutTimeout: 5_000,
    /**
     * How long a member record just read is shown again without reading it: pages opened one after another, or the
     * first page opened while the first read ran, add no read; one opened later shows what changed elsewhere (an
     * operator's refund, a grant).
     */
    profileFreshFor: 15_000,
  },
});

/** How a session (bound or not) ends: the member signs out, or the wallet moves to another account or goes away. */
export const sessionEnds = authSetup.createStateConfig({
  on: {
    'user.signOut': 'signingOut',
    'wallet.accountChanged': {
      guard: { type: 'isOtherAccount', params: ({ event }) => ({ address: event.address }) },
      description: 'auth.bindRequired:wallet.accountChanged[isOtherAccount]',
      meta: { decision: Decisions.sessionAddress },
      target: 'signingOut',
    },
    'wallet.disconnected': 'signingOut',
  },
});
