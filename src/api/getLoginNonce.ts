import type * as z from 'zod/mini';
import type { loginNonce } from '../../api-schema/auth';
import type { ApiCode } from '../../api-schema/codes';
import type { ApiClient, ApiFailure, ApiResult } from './client';

export type GetLoginNonceParameters = z.input<typeof loginNonce.query>;
export type GetLoginNonceReturnType = ApiResult<z.output<typeof loginNonce.result>>;
export type GetLoginNonceErrorType = ApiFailure<
  typeof ApiCode.clientFailure | typeof ApiCode.invalidParameters | typeof ApiCode.tooManyRequests | typeof ApiCode.internal
>;

/**
 * Gets a single-use sign-in nonce for an address (GET /api/member/loginNonce, valid 5 minutes).
 *
 * @param client - The API client.
 * @param parameters - The wallet address.
 * @returns `{ code, message, result?: { nonce, issuedAt, expirationTime } }`.
 * @example
 * const { result } = await getLoginNonce(api, { address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' });
 */
export function getLoginNonce(client: ApiClient, parameters: GetLoginNonceParameters): Promise<GetLoginNonceReturnType> {
  return client.call('loginNonce', { query: parameters });
}
