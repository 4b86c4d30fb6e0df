/**
 * The operators' desk's sign-in (docs/API.md, "Operators"): the operator connects their own wallet and
 * signs an EIP-4361 message whose statement is the desk's own ("Sign in to the Member DApp operators' desk."), with
 * a nonce of the desk's own (opsLoginNonce); opsSignIn sets the session as an HttpOnly cookie no script reads, and
 * answers the operator's roles and the session's CSRF token, which the desk holds in memory only. At every start
 * opsMe tells whether the browser holds a session (and its CSRF token again); the session ends when the operator
 * signs out, the server refuses it (1002), or the wallet moves to another account. The roles only decide which
 * screens the desk shows: the server decides every call.
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
  expiresAt: string;
  operator: Operator;
  csrfToken: string;
}

/** A session the server holds for this browser (opsMe): who, and the CSRF token its state-changing calls send. */
export interface OpsSession {
  operator: Operator;
  csrfToken: string | null;
}

export interface OpsSignInDraft {
  address: string;
  chainId: number;
  nonce: OpsNonce | null;
  signed: OpsSignedMessage | null;
}

export interface OpsSessionContext {
  /** Sent back in X-CSRF-Token; never stored (the session itself is the cookie, out of the page's reach). */
  csrfToken: string | null;
  operator: Operator | null;
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
    tags: {} as 'busy',
  },
  actors: {
    fetchNonce: fromPromise<Answer<OpsNonce>, { address: string }>(async () => notProvided('opsSession', 'fetchNonce')),
    signMessage: fromPromise<OpsSignedMessage, { address: string; chainId: number; nonce: OpsNonce }>(async () => notProvided('opsSession', 'signMessage')),
    signIn: fromPromise<Answer<OpsSignInResult>, OpsSignedMessage>(async () => notProvided('opsSession', 'signIn')),
    loadOperator: fromPromise<Answer<OpsSession>>(async () => notProvided('opsSession', 'loadOperator')),
    revokeToken: fromPromise<Answer<unknown>, { csrfToken: string | null }>(async () => notProvided('opsSession', 'revokeToken')),
  },
  actions: {
    assignDraft: assign((_, params: { address: string; chainId: number }) => ({ draft: { ...params, nonce: null, signed: null }, error: null })),
    assignNonce: assign(({ context }, params: { nonce: OpsNonce | null }) => ({
      draft: context.draft && params.nonce ? { ...context.draft, nonce: params.nonce } : context.draft,
    })),
    assignSigned: assign(({ context }, params: { signed: OpsSignedMessage }) => ({ draft: context.draft ? { ...context.draft, signed: params.signed } : null })),
    assignSession: assign((_, params: { result: OpsSession | null }) => ({
      csrfToken: params.result?.csrfToken ?? null,
      operator: params.result?.operator ?? null,
      draft: null,
      error: null,
    })),
    assignError: assign((_, params: { error: ErrorInfo }) => ({ error: params.error })),
    assignThrownError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    clearError: assign({ error: null }),
    clearSession: assign({ csrfToken: null, operator: null, draft: null }),
  },
  guards: {
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
    /** Signing out never waits long on the server: the desk has already forgotten the session. */
    signOutTimeout: 5_000,
  },
});

/** Builds the desk's session machine (src/ops/session.ts provides it); `opsSessionMachine` is the same for tests. */
// @__NO_SIDE_EFFECTS__
export function createOpsSessionMachine() {
  return opsSessionSetup.createMachine({
    id: 'opsSession',
    context: { csrfToken: null, operator: null, draft: null, error: null },
    // The page cannot see the HttpOnly cookie: only the server can say whether this browser is signed in.
    initial: 'checking',
    on: {
      'server.tokenExpired': {
        target: '.signedOut',
        actions: ['clearSession', { type: 'assignError', params: { error: apiError(ApiCode.notSignedIn) } }],
      },
    },
    states: {
      checking: {
        description: 'opsSession.checking',
        tags: 'busy',
        invoke: {
          src: 'loadOperator',
          id: 'loadOperator',
          onDone: [
            {
              guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
              target: 'signedIn',
              actions: { type: 'assignSession', params: ({ event }) => ({ result: event.output.result }) },
            },
            {
              guard: { type: 'isTokenRejected', params: ({ event }) => ({ code: event.output.code }) },
              target: 'signedOut',
              actions: 'clearSession',
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
                  actions: { type: 'assignSession', params: ({ event }) => ({ result: event.output.result }) },
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
        invoke: {
          src: 'revokeToken',
          id: 'revokeToken',
          input: ({ context }) => ({ csrfToken: context.csrfToken }),
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
