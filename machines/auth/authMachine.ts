/**
 * Sign-in and binding (spec section 4, API.md "Authentication"). The member signs an EIP-4361 message with the
 * connected wallet; the server answers with an auth token and whether a recommender is bound. The token is always
 * stored as the temporary token first, and becomes the main token only once bound: at once when isFinishedBind,
 * or after binding with an invite code (set-token with no value promotes the temporary token). A session is
 * restored from storage at start and ends when the member signs out, the server says the token is no longer
 * valid, or the wallet switches to another account or disconnects.
 */
import { and, assign, fromPromise, or, setup } from 'xstate';
import { notProvided, toErrorInfo } from '../shared/errorInfo';
import type { ErrorInfo } from '../shared/errorInfo';
import { isInviteCode } from '../shared/fieldRules';
import { ApiErrorName, AuthErrorNames, WalletErrorNames } from '../shared/errorNames';
import { ApiCode } from '../../api-schema/codes';

/** The member record of meInfo; the machine only reads its address. */
export interface UserInfo {
  address: string;
  [field: string]: unknown;
}

/** What an API call answers (API.md "Envelope"); the client turns every failure into a code. */
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
  | { type: 'server.tokenExpired' };

/** Envelope code for an unknown, expired or revoked token (API.md "Codes"). */
const tokenRejectedCode = ApiCode.notSignedIn;

const apiError = (code: number): ErrorInfo => ({ name: ApiErrorName, code });

const authSetup = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as StoredSession,
    tags: {} as 'busy',
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
  },
});

/** How a session (bound or not) ends: the member signs out, or the wallet moves to another account or goes away. */
const sessionEnds = authSetup.createStateConfig({
  on: {
    'user.signOut': 'signingOut',
    'wallet.accountChanged': {
      guard: { type: 'isOtherAccount', params: ({ event }) => ({ address: event.address }) },
      target: 'signingOut',
    },
    'wallet.disconnected': 'signingOut',
  },
});

export const authMachine = authSetup.createMachine({
  id: 'auth',
  context: ({ input }) => ({
    token: input.token,
    tempToken: input.tempToken,
    userInfo: input.userInfo,
    address: input.address ?? input.userInfo?.address ?? null,
    draft: null,
    error: null,
  }),
  initial: 'restoring',
  on: {
    'server.tokenExpired': {
      description: 'Any API call answered 1002: the stored token is dead, so the session ends everywhere.',
      target: '.signedOut',
      actions: ['clearSession', 'removeStoredSession', { type: 'assignError', params: { error: apiError(tokenRejectedCode) } }],
    },
  },
  states: {
    restoring: {
      description:
        'Reads the session from storage at start: a main token is a bound member, a temporary one is not. Either ' +
        'counts only with the address it was issued to, so that a wallet on another account ends it.',
      always: [
        { guard: and(['hasMainToken', 'hasAddress']), target: 'signedIn' },
        { guard: and(['hasTempToken', 'hasAddress']), target: 'bindRequired' },
        {
          guard: or(['hasMainToken', 'hasTempToken']),
          description: 'A stored token whose address is unknown cannot be checked against the wallet: it is dropped.',
          target: 'signedOut',
          actions: ['clearSession', 'removeStoredSession'],
        },
        { target: 'signedOut' },
      ],
    },
    signedOut: {
      description: 'No session. The member connects the wallet, then signs in.',
      on: {
        'user.signIn': {
          target: 'signingIn',
          actions: {
            type: 'assignDraft',
            params: ({ event }) => ({ address: event.address, chainId: event.chainId, inviteCode: event.inviteCode ?? null }),
          },
        },
      },
    },
    signingIn: {
      description: 'Nonce, wallet signature, server check. The member can cancel at any step.',
      tags: 'busy',
      initial: 'fetchingNonce',
      on: {
        'user.cancel': { target: 'signedOut', actions: ['clearSession', 'clearError'] },
        'wallet.accountChanged': {
          guard: { type: 'isOtherAccount', params: ({ event }) => ({ address: event.address }) },
          target: 'signedOut',
          actions: ['clearSession', { type: 'assignError', params: { error: { name: AuthErrorNames.walletChanged } } }],
        },
        'wallet.disconnected': {
          target: 'signedOut',
          actions: ['clearSession', { type: 'assignError', params: { error: { name: WalletErrorNames.disconnected } } }],
        },
      },
      states: {
        fetchingNonce: {
          description: 'GET loginNonce: a single-use nonce for this address.',
          invoke: {
            id: 'fetchNonce',
            src: 'fetchNonce',
            input: ({ context }) => ({ address: context.draft?.address ?? '' }),
            onDone: [
              {
                guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
                target: 'signingMessage',
                actions: { type: 'assignNonce', params: ({ event }) => ({ nonce: event.output.result }) },
              },
              {
                target: '#auth.signedOut',
                actions: ['clearSession', { type: 'assignError', params: ({ event }) => ({ error: apiError(event.output.code) }) }],
              },
            ],
          },
        },
        signingMessage: {
          description: 'The wallet shows the EIP-4361 message; the member confirms it there.',
          invoke: {
            id: 'signMessage',
            src: 'signMessage',
            input: ({ context }) => ({
              address: context.draft?.address ?? '',
              chainId: context.draft?.chainId ?? 0,
              nonce: context.draft?.nonce ?? { nonce: '', issuedAt: '', expirationTime: '' },
            }),
            onDone: {
              target: 'verifying',
              actions: { type: 'assignSigned', params: ({ event }) => ({ signed: event.output }) },
            },
            onError: {
              target: '#auth.signedOut',
              actions: ['clearSession', { type: 'assignThrownError', params: ({ event }) => ({ error: event.error }) }],
            },
          },
          after: {
            signatureTimeout: {
              target: '#auth.signedOut',
              actions: ['clearSession', { type: 'assignError', params: { error: { name: WalletErrorNames.timeout } } }],
            },
          },
        },
        verifying: {
          description: 'POST memberSignLogin: the server checks the message and signature and answers a token.',
          invoke: {
            id: 'verifySignature',
            src: 'verifySignature',
            input: ({ context }) => ({
              message: context.draft?.signed?.message ?? '',
              signature: context.draft?.signed?.signature ?? '',
              inviteCode: context.draft?.inviteCode ?? null,
            }),
            onDone: [
              {
                guard: { type: 'isSignedInAndBound', params: ({ event }) => event.output },
                target: '#auth.signedIn',
                actions: [
                  { type: 'assignTempToken', params: ({ event }) => ({ auth: event.output.auth }) },
                  'storeTempToken',
                  'storeAddress',
                  { type: 'assignToken', params: ({ event }) => ({ token: event.output.auth }) },
                  'storeToken',
                ],
              },
              {
                guard: { type: 'isSignedIn', params: ({ event }) => event.output },
                target: '#auth.bindRequired',
                actions: [{ type: 'assignTempToken', params: ({ event }) => ({ auth: event.output.auth }) }, 'storeTempToken', 'storeAddress'],
              },
              {
                target: '#auth.signedOut',
                actions: ['clearSession', { type: 'assignError', params: ({ event }) => ({ error: apiError(event.output.code) }) }],
              },
            ],
          },
        },
      },
    },
    bindRequired: {
      description: 'Signed in with a temporary token: a recommender must be bound with an invite code.',
      initial: 'editing',
      ...sessionEnds,
      states: {
        editing: {
          description: 'The member enters or confirms an invite code.',
          on: {
            'user.bind': [
              {
                guard: { type: 'isInviteCodeValid', params: ({ event }) => ({ inviteCode: event.inviteCode }) },
                target: 'binding',
                actions: 'clearError',
              },
              {
                description: 'The code is not 4-16 letters or digits: the field shows why; nothing is sent.',
                actions: { type: 'assignError', params: { error: { name: AuthErrorNames.inviteCodeInvalid } } },
              },
            ],
          },
        },
        binding: {
          description: 'POST bindRecommendRelation with the temporary token.',
          tags: 'busy',
          invoke: {
            id: 'bindRecommender',
            src: 'bindRecommender',
            input: ({ event }) => ({ inviteCode: event.type === 'user.bind' ? event.inviteCode : '' }),
            onDone: [
              {
                guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
                target: '#auth.signedIn',
                actions: [{ type: 'assignToken', params: {} }, 'storeToken'],
              },
              {
                target: 'editing',
                actions: { type: 'assignError', params: ({ event }) => ({ error: apiError(event.output.code) }) },
              },
            ],
          },
          on: { 'user.cancel': 'editing' },
        },
      },
    },
    signedIn: {
      description: 'A bound member with a main token.',
      initial: 'loadingProfile',
      ...sessionEnds,
      states: {
        loadingProfile: {
          description: 'GET meInfo; the answer is kept and persisted as the user info.',
          invoke: {
            id: 'loadUserInfo',
            src: 'loadUserInfo',
            onDone: [
              {
                guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
                target: 'ready',
                actions: [
                  { type: 'assignUserInfo', params: ({ event }) => ({ userInfo: event.output.result as UserInfo }) },
                  'storeUserInfo',
                ],
              },
              {
                guard: { type: 'isTokenRejected', params: ({ event }) => ({ code: event.output.code }) },
                target: '#auth.signedOut',
                actions: ['clearSession', 'removeStoredSession', { type: 'assignError', params: { error: apiError(tokenRejectedCode) } }],
              },
              {
                target: 'profileFailed',
                actions: { type: 'assignError', params: ({ event }) => ({ error: apiError(event.output.code) }) },
              },
            ],
          },
        },
        profileFailed: {
          description: 'meInfo failed (network, server): the member can retry; the session stays.',
          on: { 'user.retry': { target: 'loadingProfile', actions: 'clearError' } },
        },
        ready: {},
      },
    },
    signingOut: {
      description: 'The local session is dropped at once; the server is asked to revoke the token.',
      entry: 'removeStoredSession',
      invoke: {
        id: 'revokeToken',
        src: 'revokeToken',
        input: ({ context }) => ({ token: context.token ?? context.tempToken }),
        onDone: { target: 'signedOut', actions: 'clearSession' },
        onError: { target: 'signedOut', actions: 'clearSession' },
      },
      after: { signOutTimeout: { target: 'signedOut', actions: 'clearSession' } },
    },
  },
});

export type AuthMachine = typeof authMachine;
