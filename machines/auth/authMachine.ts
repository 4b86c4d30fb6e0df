/**
 * Sign-in and binding (spec section 4, docs/API.md "Authentication"). The member signs an EIP-4361 message with the
 * connected wallet; the server answers with an auth token and whether a recommender is bound. The token is always
 * stored as the temporary token first, and becomes the main token only once bound: at once when isFinishedBind,
 * or after binding with an invite code (set-token with no value promotes the temporary token). A session is
 * restored from storage at start and ends when the member signs out, the server says the token is no longer
 * valid, or the wallet switches to another account or disconnects.
 *
 * The setup (context, events, actors, actions, guards) is in authSetup.ts; signing in in signingIn.ts.
 */
import { and, or } from 'xstate';
import { AuthErrorNames } from '../shared/errorNames';
import { Decisions } from '../shared/transitionMeta';
import { apiError, authSetup, sessionEnds, tokenRejectedCode } from './authSetup';
import type { UserInfo } from './authSetup';
import { signingIn } from './signingIn';

export type {
  ApiAnswer,
  AuthContext,
  AuthEvent,
  NonceAnswer,
  SignInDraft,
  SignInResult,
  SignedMessage,
  StoredSession,
  UserInfo,
} from './authSetup';

/**
 * Builds the auth machine. The app builds it as it starts its actors (src/actors/authActors.ts), not when this
 * module loads; `authMachine` below is the same definition for tests, diagrams and types. Marked free of side
 * effects, so a bundle that never reads `authMachine` drops it: building machines was about a third of the entry
 * script's evaluation, one task of a phone's start-up (Lighthouse's Total Blocking Time).
 */
// @__NO_SIDE_EFFECTS__
export function createAuthMachine() {
  return authSetup.createMachine({
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
        description: 'auth:server.tokenExpired',
        target: '.signedOut',
        actions: ['clearSession', 'removeStoredSession', { type: 'assignError', params: { error: apiError(tokenRejectedCode) } }],
      },
    },
    states: {
      restoring: {
        description: 'auth.restoring',
        always: [
          { guard: and(['hasMainToken', 'hasAddress']), meta: { decision: Decisions.sessionAddress }, target: 'signedIn' },
          { guard: and(['hasTempToken', 'hasAddress']), meta: { decision: Decisions.sessionAddress }, target: 'bindRequired' },
          {
            guard: or(['hasMainToken', 'hasTempToken']),
            description: 'auth.restoring:always[or(hasMainToken, hasTempToken)]',
            meta: { decision: Decisions.sessionAddress },
            target: 'signedOut',
            actions: ['clearSession', 'removeStoredSession'],
          },
          { target: 'signedOut' },
        ],
      },
      signedOut: {
        description: 'auth.signedOut',
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
      signingIn,
      bindRequired: {
        description: 'auth.bindRequired',
        initial: 'editing',
        ...sessionEnds,
        states: {
          editing: {
            description: 'auth.bindRequired.editing',
            on: {
              'user.bind': [
                {
                  guard: { type: 'isInviteCodeValid', params: ({ event }) => ({ inviteCode: event.inviteCode }) },
                  target: 'binding',
                  actions: 'clearError',
                },
                {
                  description: 'auth.bindRequired.editing:user.bind',
                  actions: { type: 'assignError', params: { error: { name: AuthErrorNames.inviteCodeInvalid } } },
                },
              ],
            },
          },
          binding: {
            description: 'auth.bindRequired.binding',
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
        description: 'auth.signedIn',
        initial: 'loadingProfile',
        ...sessionEnds,
        states: {
          loadingProfile: {
            description: 'auth.signedIn.loadingProfile',
            on: {
              // Money moved while a read ran that may have started before it: that read is dropped for a new one.
              'app.refreshProfile': {
                target: 'loadingProfile',
                reenter: true,
                description: 'auth.signedIn.loadingProfile:app.refreshProfile',
              },
            },
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
            description: 'auth.signedIn.profileFailed',
            on: {
              'user.retry': { target: 'loadingProfile', actions: 'clearError' },
              // A failed read (often a background one, as a phone resumes) is tried again by what would read anyway.
              'app.profileShown': { target: 'loadingProfile', actions: 'clearError', description: 'auth.signedIn.profileFailed:app.profileShown' },
              'app.refreshProfile': { target: 'loadingProfile', actions: 'clearError', description: 'auth.signedIn.profileFailed:app.refreshProfile' },
            },
          },
          ready: {
            description: 'auth.signedIn.ready',
            initial: 'fresh',
            on: {
              'app.refreshProfile': {
                target: 'loadingProfile',
                description: 'auth.signedIn.ready:app.refreshProfile',
              },
            },
            states: {
              fresh: {
                description: 'auth.signedIn.ready.fresh',
                after: { profileFreshFor: { target: 'stale', description: 'auth.signedIn.ready.fresh:after.profileFreshFor' } },
              },
              stale: {
                description: 'auth.signedIn.ready.stale',
                on: {
                  'app.profileShown': {
                    target: '#auth.signedIn.loadingProfile',
                    description: 'auth.signedIn.ready.stale:app.profileShown',
                  },
                },
              },
            },
          },
        },
      },
      signingOut: {
        description: 'auth.signingOut',
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
}

export const authMachine = createAuthMachine();

export type AuthMachine = typeof authMachine;
