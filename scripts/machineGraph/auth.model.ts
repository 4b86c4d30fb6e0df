/**
 * The auth machine's test model: sign-in answers as the reference server gives them, wallet events as the
 * wiring in src/app sends them, and a session restored from storage in each of its three forms.
 */
import { authMachine } from '../../machines/auth/authMachine';
import type { StoredSession } from '../../machines/auth/authMachine';
import type { MachineModel, ModelEvent } from './modelPaths';
import { accountA, accountB } from './wallet.model';

export const nonceAnswer = { nonce: 'Kq3xv9Lm2Pz8Rt4W', issuedAt: '2026-11-22T10:00:00.000Z', expirationTime: '2026-11-22T10:05:00.000Z' };
export const userInfoA = { address: accountA, inviteCode: 'AB12CD34', recommender: null, level: 0 };

const events: ModelEvent[] = [
  { type: 'user.signIn', address: accountA, chainId: 56, inviteCode: 'DEMO2026' },
  { type: 'user.signIn', address: accountA, chainId: 56 },
  { type: 'user.bind', inviteCode: 'DEMO2026' },
  { type: 'user.bind', inviteCode: 'no!' },
  { type: 'user.cancel' },
  { type: 'user.signOut' },
  { type: 'user.retry' },
  { type: 'app.refreshProfile' },
  { type: 'app.profileShown' },
  { type: 'wallet.accountChanged', address: accountA.toLowerCase() },
  { type: 'wallet.accountChanged', address: accountB },
  { type: 'wallet.disconnected' },
  { type: 'server.tokenExpired' },
  { type: 'xstate.done.actor.fetchNonce', output: { code: 0, result: nonceAnswer } },
  { type: 'xstate.done.actor.fetchNonce', output: { code: 4290 } },
  { type: 'xstate.done.actor.signMessage', output: { message: 'siwe message', signature: '0xsig' } },
  { type: 'xstate.error.actor.signMessage', error: { name: 'UserRejectedError', code: 4001 } },
  { type: 'xstate.done.actor.verifySignature', output: { code: 0, auth: 'token-bound', isFinishedBind: true } },
  { type: 'xstate.done.actor.verifySignature', output: { code: 0, auth: 'token-temp', isFinishedBind: false } },
  { type: 'xstate.done.actor.verifySignature', output: { code: -1, auth: '', isFinishedBind: false } },
  { type: 'xstate.done.actor.bindRecommender', output: { code: 0 } },
  { type: 'xstate.done.actor.bindRecommender', output: { code: 2001 } },
  { type: 'xstate.done.actor.loadUserInfo', output: { code: 0, result: userInfoA } },
  { type: 'xstate.done.actor.loadUserInfo', output: { code: 1002 } },
  { type: 'xstate.done.actor.loadUserInfo', output: { code: -1 } },
  { type: 'xstate.done.actor.revokeToken', output: { code: 0 } },
  { type: 'xstate.error.actor.revokeToken', error: { name: 'TypeError' } },
];

const model = (name: string, input: StoredSession): MachineModel => ({ name, machine: authMachine, input, events });

/** Fresh start: nothing stored. */
export const authModel = model('auth', { token: null, tempToken: null, userInfo: null, address: null });
/** Start with only a temporary token stored (signed in, not bound), with the address it was issued to. */
export const authModelFromTempToken = model('auth (restored temporary token)', {
  token: null,
  tempToken: 'token-temp',
  userInfo: null,
  address: accountA,
});
/** Start with a main token, its address and user info stored. */
export const authModelFromMainToken = model('auth (restored main token)', {
  token: 'token-bound',
  tempToken: 'token-bound',
  userInfo: userInfoA,
  address: accountA,
});
/** Start with a temporary token whose address is unknown (stored before the address was kept beside it). */
export const authModelFromUnknownOwner = model('auth (restored token of unknown address)', {
  token: null,
  tempToken: 'token-temp',
  userInfo: null,
  address: null,
});

/** Every start of the auth machine, fresh first: the path tests and the UI replay walk them in this order. */
export const authModels = [authModel, authModelFromTempToken, authModelFromMainToken, authModelFromUnknownOwner];
