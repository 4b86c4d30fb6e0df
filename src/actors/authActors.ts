/**
 * The real side of the auth machine: the sign-in calls of docs/API.md, the EIP-4361 message built with viem's siwe
 * helpers and signed by the connected wallet, and the spec's storage keys for the session.
 */
import { fromPromise } from 'xstate';
import type { Address } from 'viem';
import { createAuthMachine } from '../../machines/auth/authMachine';
import type { ApiAnswer, NonceAnswer, SignInResult, SignedMessage, StoredSession, UserInfo } from '../../machines/auth/authMachine';
import type { ApiClient } from '../api/client';
import { bindRecommendRelation } from '../api/bindRecommendRelation';
import { getLoginNonce } from '../api/getLoginNonce';
import { getMeInfo } from '../api/getMeInfo';
import { logout } from '../api/logout';
import { memberSignLogin } from '../api/memberSignLogin';
import type { BrowserStorage } from '../storage/browserStorage';
import { STORAGE_KEYS } from '../storage/keys';
import { provideBuilt } from '../../machines/shared/provideBuilt';

export interface SiweSite {
  /** RFC 3986 authority of the page, e.g. "app.example.com" or "127.0.0.1:8080". */
  domain: string;
  /** The page origin, used as the message URI. */
  uri: string;
  /** The statement of app config (siweStatement), when loaded. */
  statement: () => string | undefined;
}

export interface AuthActorsParameters {
  api: ApiClient;
  /** An API client that sends the given token instead of the stored one (sign-out runs after storage is cleared). */
  apiWithToken: (token: string | null) => ApiClient;
  storage: BrowserStorage;
  site: SiweSite;
  /** Asks the connected wallet to sign a text message (personal_sign). */
  signWithWallet: (address: Address, message: string) => Promise<string>;
}

const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * Reads the stored session (spec section 3 keys, and the address the tokens belong to). Unreadable values count
 * as absent.
 *
 * @example const session = readStoredSession(storage);
 */
export function readStoredSession(storage: BrowserStorage): StoredSession {
  const token = storage.readJson(STORAGE_KEYS.token);
  const tempToken = storage.readJson(STORAGE_KEYS.tempToken);
  const userInfo = storage.readJson(STORAGE_KEYS.userInfo);
  const address = storage.readJson(STORAGE_KEYS.sessionAddress);
  const hasAddress = typeof userInfo === 'object' && userInfo !== null && isString((userInfo as { address?: unknown }).address);
  return {
    token: isString(token) ? token : null,
    tempToken: isString(tempToken) ? tempToken : null,
    userInfo: hasAddress ? (userInfo as UserInfo) : null,
    address: isString(address) ? address : null,
  };
}

/**
 * Provides the auth machine with its real actors and storage actions.
 *
 * @example const machine = provideAuthMachine({ api, apiWithToken, storage, site, signWithWallet });
 */
export function provideAuthMachine({ api, apiWithToken, storage, site, signWithWallet }: AuthActorsParameters) {
  return provideBuilt(createAuthMachine(), {
    actors: {
      fetchNonce: fromPromise<ApiAnswer<NonceAnswer>, { address: string }>(({ input }) =>
        getLoginNonce(api, { address: input.address }),
      ),
      signMessage: fromPromise<SignedMessage, { address: string; chainId: number; nonce: NonceAnswer }>(async ({ input }) => {
        // viem's siwe helpers load with the signature step, not with the first screen.
        const { createSiweMessage } = await import('viem/siwe');
        const message = createSiweMessage({
          domain: site.domain,
          address: input.address as Address,
          statement: site.statement(),
          uri: site.uri,
          version: '1',
          chainId: input.chainId,
          nonce: input.nonce.nonce,
          issuedAt: new Date(input.nonce.issuedAt),
          expirationTime: new Date(input.nonce.expirationTime),
        });
        const signature = await signWithWallet(input.address as Address, message);
        return { message, signature };
      }),
      verifySignature: fromPromise<SignInResult, SignedMessage & { inviteCode: string | null }>(async ({ input }) => {
        const body = input.inviteCode
          ? { message: input.message, signature: input.signature, inviteCode: input.inviteCode }
          : { message: input.message, signature: input.signature };
        const answer = await memberSignLogin(api, body);
        // Spec section 4: a failed sign-in reads as an empty token and isFinishedBind false.
        if (answer.code !== 0 || !answer.result) return { code: answer.code === 0 ? -1 : answer.code, auth: '', isFinishedBind: false };
        return { code: 0, auth: answer.result.auth, isFinishedBind: answer.result.isFinishedBind };
      }),
      bindRecommender: fromPromise<ApiAnswer<unknown>, { inviteCode: string }>(({ input }) =>
        bindRecommendRelation(api, { inviteCode: input.inviteCode }),
      ),
      loadUserInfo: fromPromise<ApiAnswer<UserInfo>>(() => getMeInfo(api)),
      revokeToken: fromPromise<ApiAnswer<unknown>, { token: string | null }>(({ input }) =>
        logout(apiWithToken(input.token)),
      ),
    },
    actions: {
      storeTempToken: ({ context }) => void storage.writeJson(STORAGE_KEYS.tempToken, context.tempToken),
      storeAddress: ({ context }) => void storage.writeJson(STORAGE_KEYS.sessionAddress, context.address),
      storeToken: ({ context }) => void storage.writeJson(STORAGE_KEYS.token, context.token),
      storeUserInfo: ({ context }) => void storage.writeJson(STORAGE_KEYS.userInfo, context.userInfo),
      removeStoredSession: () => {
        storage.remove(STORAGE_KEYS.token);
        storage.remove(STORAGE_KEYS.tempToken);
        storage.remove(STORAGE_KEYS.userInfo);
        storage.remove(STORAGE_KEYS.sessionAddress);
      },
    },
  });
}
