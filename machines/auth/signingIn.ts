/**
 * Signing in (spec section 4): a single-use nonce, the member's signature of the EIP-4361 message in the wallet,
 * then the server's check, which answers a token. The returned token is always stored as the temporary token,
 * with the address it was issued to; it is also the main token at once when the member is already bound.
 */
import { AuthErrorNames, WalletErrorNames } from '../shared/errorNames';
import { apiError, authSetup } from './authSetup';

export const signingIn = authSetup.createStateConfig({
  description: 'auth.signingIn',
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
      description: 'auth.signingIn.fetchingNonce',
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
      description: 'auth.signingIn.signingMessage',
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
      description: 'auth.signingIn.verifying',
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
});
