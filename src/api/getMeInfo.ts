import type { ApiCode } from '../../api-schema/codes';
import type { MeInfo } from '../../api-schema/member';
import type { ApiClient, ApiFailure, ApiResult } from './client';

export type GetMeInfoParameters = undefined;
export type GetMeInfoReturnType = ApiResult<MeInfo>;
export type GetMeInfoErrorType = ApiFailure<
  typeof ApiCode.clientFailure | typeof ApiCode.notSignedIn | typeof ApiCode.tooManyRequests | typeof ApiCode.internal
>;

/**
 * Reads the signed-in member (GET /api/member/meInfo); a temporary token may read it too.
 *
 * @param client - The API client.
 * @returns `{ code, message, result?: MeInfo }`.
 * @example
 * const { result } = await getMeInfo(api); // result?.inviteCode
 */
export function getMeInfo(client: ApiClient): Promise<GetMeInfoReturnType> {
  return client.call('meInfo');
}
