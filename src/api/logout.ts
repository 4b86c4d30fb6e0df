import type * as z from 'zod/mini';
import type { logout as logoutEndpoint } from '../../api-schema/auth';
import type { ApiCode } from '../../api-schema/codes';
import type { ApiClient, ApiFailure, ApiResult } from './client';

export type LogoutParameters = undefined;
export type LogoutReturnType = ApiResult<z.output<typeof logoutEndpoint.result>>;
export type LogoutErrorType = ApiFailure<typeof ApiCode.clientFailure | typeof ApiCode.notSignedIn | typeof ApiCode.internal>;

/**
 * Revokes the current token on the server (POST /api/member/logout). The caller clears local storage whatever
 * the answer.
 *
 * @param client - The API client.
 * @returns `{ code, message }`.
 * @example
 * await logout(api);
 */
export function logout(client: ApiClient): Promise<LogoutReturnType> {
  return client.call('logout');
}
