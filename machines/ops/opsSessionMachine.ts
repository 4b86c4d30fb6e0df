/**
 * The operators' desk's sign-in (issue 43; docs/API.md, "Operators"): the operator connects their own wallet and
 * signs an EIP-4361 message whose statement is the desk's own ("Sign in to the Member DApp operators' desk."), with
 * a nonce of the desk's own (opsLoginNonce); opsSignIn answers an operator token and the operator's roles. The
 * token is kept under its own storage key, never the member's. A stored token is checked with opsMe at start; the
 * session ends when the operator signs out, the server refuses the token (1002), or the wallet moves to another
 * account. The roles only decide which screens the desk shows: the server decides every call.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { OperatorRole } from '../../api-schema/endpoint';
import { ApiCode } from '../../api-schema/codes';
import type { Answer } from '../shared/answer';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';
import { AuthErrorNames, WalletErrorNames } from '../shared/errorNames';

/** The statement of every desk sign-in message; the server refuses a member's message for the desk, and the reverse. */
export const OPS_SIGN_IN_STATEMENT = "Sign in to the Member DApp operators' desk.";

/** Who is signed in: opsMe's and opsSignIn's operator. */
export interface Operator {
  address: string;
  roles: readonly OperatorRole[];
}

export interface OpsNonce {
  nonce: string;
  issuedAt: string;
  expirationTime: string;
}

export interface OpsSignedMessage {
  message: string;
  signature: string;
}

export interface OpsSignInResult {
  token: string;
  expiresAt: string;
  operator: Operator;
}

/** What storage holds between visits (src/ops/storage: OPS_TOKEN, OPS_OPERATOR). */
export interface OpsStoredSession {
  token: string | null;
  operator: Operator | null;
}

export interface OpsSignInDraft {
  address: string;
  chainId: number;
  nonce: OpsNonce | null;
  signed: OpsSignedMessage | null;
}

export interface OpsSessionContext extends OpsStoredSession {
  draft: OpsSignInDraft | null;
  error: ErrorInfo | null;
}

export type OpsSessionEvent =
  | { type: 'user.signIn'; address: string; chainId: number }
  | { type: 'user.cancel' }
  | { type: 'user.signOut' }
  | { type: 'user.retry' }
  | { type: 'wallet.accountChanged'; address: string }
  | { type: 'wallet.disconnected' }
  | { type: 'server.tokenExpired' };

const apiError = (code: number): ErrorInfo => ({ name: 'ApiError', code });

export const opsSessionSetup = setup({
  types: {
    context: {} as OpsSessionContext,
    events: {} as OpsSessionEvent,
    input: {} as OpsStoredSession,
    tags: {} as 'busy',
  },
  actors: {
    fetchNonce: fromPromise<Answer<OpsNonce>, { address: string }>(async () => notProvided('opsSession', 'fetchNonce')),
    signMessage: fromPromise<OpsSignedMessage, { address: string; chainId: number; nonce: OpsNonce }>(async () => notProvided('opsSession', 'signMessage')),
    signIn: fromPromise<Answer<OpsSignInResult>, OpsSignedMessage>(async () => notProvided('opsSession', 'signIn')),
    loadOperator: fromPromise<Answer<Operator>, { token: string | null }>(async () => notProvided('opsSession', 'loadOperator')),
    revokeToken: fromPromise<Answer<unknown>, { token: string | null }>(async () => notProvided('opsSession', 'revokeToken')),
  },
  actions: {
    assignDraft: assign((_, params: { address: string; chainId: number }) => ({ draft: { ...params, nonce: null, signed: null }, error: null })),
    assignNonce: assign(({ context }, params: { nonce: OpsNonce | null }) => ({
      draft: context.draft && params.nonce ? { ...context.draft, nonce: params.nonce } : context.draft,
    })),
    assignSigned: assign(({ context }, params: { signed: OpsSignedMessage }) => ({ draft: context.draft ? { ...context.draft, signed: params.signed } : null })),
    assignSession: assign((_, params: { result: OpsSignInResult | null }) => ({
      token: params.result?.token ?? null,
      operator: params.result?.operator ?? null,
      draft: null,
      error: null,
    })),
    assignOperator: assign((_, params: { operator: Operator | null }) => ({ operator: params.operator, error: null })),
    assignError: assign((_, params: { error: ErrorInfo }) => ({ error: params.error })),
    assignThrownError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    clearError: assign({ error: null }),
    clearSession: assign({ token: null, operator: null, draft: null }),
    storeSession: () => {
      // Provided by the desk: keeps the token and the operator under the desk's own storage keys.
    },
    removeStoredSession: () => {
      // Provided by the desk: removes the desk's storage keys (never the member's).
    },
  },
  guards: {
    hasToken: ({ context }) => Boolean(context.token),
    isApiOk: (_, params: { code: number }) => params.code === ApiCode.ok,
    isTokenRejected: (_, params: { code: number }) => params.code === ApiCode.notSignedIn,
    isOtherAccount: ({ context }, params: { address: string }) => {
      const current = context.draft?.address ?? context.operator?.address ?? null;
      return current !== null && current.toLowerCase() !== params.address.toLowerCase();
    },
  },
  delays: {
    /** A wallet that never answers the signature prompt must not keep the operator waiting forever. */
    signatureTimeout: 120_000,
    /** Signing out never waits long on the server: the desk's stored session is already gone. */
    signOutTimeout: 5_000,
  },
});

/** Builds the desk's session machine (src/ops/session.ts provides it); `opsSessionMachine` is the same for tests. */
// @__NO_SIDE_EFFECTS__
export function createOpsSessionMachine() {
  return opsSessionSetup.createMachine({
    id: 'opsSession',
    context: ({ input }) => ({ token: input.token, operator: input.operator, draft: null, error: null }),
    initial: 'restoring',
    on: {
      'server.tokenExpired': {
        target: '.signedOut',
        actions: ['clearSession', 'removeStoredSession', { type: 'assignError', params: { error: apiError(ApiCode.notSignedIn) } }],
      },
    },
    states: {
      restoring: {
        description: 'opsSession.restoring',
        always: [{ guard: 'hasToken', target: 'checking' }, { target: 'signedOut', actions: 'clearSession' }],
      },
      checking: {
        description: 'opsSession.checking',
        tags: 'busy',
        invoke: {
          src: 'loadOperator',
          id: 'loadOperator',
          input: ({ context }) => ({ token: context.token }),
          onDone: [
            {
              guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
              target: 'signedIn',
              actions: [{ type: 'assignOperator', params: ({ event }) => ({ operator: event.output.result }) }, 'storeSession'],
            },
            {
              guard: { type: 'isTokenRejected', params: ({ event }) => ({ code: event.output.code }) },
              target: 'signedOut',
              actions: ['clearSession', 'removeStoredSession'],
            },
            { target: 'checkFailed', actions: { type: 'assignError', params: ({ event }) => ({ error: apiError(event.output.code) }) } },
          ],
          onError: { target: 'checkFailed', actions: { type: 'assignThrownError', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      checkFailed: {
        description: 'opsSession.checkFailed',
        on: {
          'user.retry': { target: 'checking', actions: 'clearError' },
          'user.signOut': 'signingOut',
        },
      },
      signedOut: {
        description: 'opsSession.signedOut',
        on: {
          'user.signIn': {
            target: 'signingIn',
            actions: { type: 'assignDraft', params: ({ event }) => ({ address: event.address, chainId: event.chainId }) },
          },
        },
      },
      signingIn: {
        description: 'opsSession.signingIn',
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
            description: 'opsSession.signingIn.fetchingNonce',
            invoke: {
              src: 'fetchNonce',
              id: 'fetchNonce',
              input: ({ context }) => ({ address: context.draft?.address ?? '' }),
              onDone: [
                {
                  guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
                  target: 'signingMessage',
                  actions: { type: 'assignNonce', params: ({ event }) => ({ nonce: event.output.result }) },
                },
                {
                  target: '#opsSession.signedOut',
                  actions: ['clearSession', { type: 'assignError', params: ({ event }) => ({ error: apiError(event.output.code) }) }],
                },
              ],
              onError: {
                target: '#opsSession.signedOut',
                actions: ['clearSession', { type: 'assignThrownError', params: ({ event }) => ({ error: event.error }) }],
              },
            },
          },
          signingMessage: {
            description: 'opsSession.signingIn.signingMessage',
            invoke: {
              src: 'signMessage',
              id: 'signMessage',
              input: ({ context }) => ({
                address: context.draft?.address ?? '',
                chainId: context.draft?.chainId ?? 0,
                nonce: context.draft?.nonce ?? { nonce: '', issuedAt: '', expirationTime: '' },
              }),
              onDone: { target: 'verifying', actions: { type: 'assignSigned', params: ({ event }) => ({ signed: event.output }) } },
              onError: {
                target: '#opsSession.signedOut',
                actions: ['clearSession', { type: 'assignThrownError', params: ({ event }) => ({ error: event.error }) }],
              },
            },
            after: {
              signatureTimeout: {
                target: '#opsSession.signedOut',
                actions: ['clearSession', { type: 'assignError', params: { error: { name: WalletErrorNames.timeout } } }],
              },
            },
          },
          verifying: {
            description: 'opsSession.signingIn.verifying',
            invoke: {
              src: 'signIn',
              id: 'signIn',
              input: ({ context }) => ({ message: context.draft?.signed?.message ?? '', signature: context.draft?.signed?.signature ?? '' }),
              onDone: [
                {
                  guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
                  target: '#opsSession.signedIn',
                  actions: [{ type: 'assignSession', params: ({ event }) => ({ result: event.output.result }) }, 'storeSession'],
                },
                {
                  target: '#opsSession.signedOut',
                  actions: ['clearSession', { type: 'assignError', params: ({ event }) => ({ error: apiError(event.output.code) }) }],
                },
              ],
              onError: {
                target: '#opsSession.signedOut',
                actions: ['clearSession', { type: 'assignThrownError', params: ({ event }) => ({ error: event.error }) }],
              },
            },
          },
        },
      },
      signedIn: {
        description: 'opsSession.signedIn',
        on: {
          'user.signOut': 'signingOut',
          'wallet.accountChanged': {
            guard: { type: 'isOtherAccount', params: ({ event }) => ({ address: event.address }) },
            target: 'signingOut',
          },
        },
      },
      signingOut: {
        description: 'opsSession.signingOut',
        tags: 'busy',
        entry: 'removeStoredSession',
        invoke: {
          src: 'revokeToken',
          id: 'revokeToken',
          input: ({ context }) => ({ token: context.token }),
          onDone: { target: 'signedOut', actions: 'clearSession' },
          onError: { target: 'signedOut', actions: 'clearSession' },
        },
        after: { signOutTimeout: { target: 'signedOut', actions: 'clearSession' } },
      },
    },
  });
}

export const opsSessionMachine = createOpsSessionMachine();
export type OpsSessionMachine = typeof opsSessionMachine;
