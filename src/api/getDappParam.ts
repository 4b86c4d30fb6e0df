import type { ApiCode } from '../../api-schema/codes';
import type { DappParam } from '../../api-schema/dapp';
import type { ApiClient, ApiFailure, ApiResult } from './client';

export type GetDappParamParameters = undefined;
export type GetDappParamReturnType = ApiResult<DappParam>;
export type GetDappParamErrorType = ApiFailure<typeof ApiCode.clientFailure | typeof ApiCode.tooManyRequests | typeof ApiCode.internal>;

/**
 * Reads the app config (GET /api/dapp/dappParam): chain and chain parameters, limits, sign-in domain. The config
 * machine turns a failure into null (spec section 8).
 *
 * @param client - The API client.
 * @returns `{ code, message, result?: DappParam }`.
 * @example
 * const { result } = await getDappParam(api); // result?.chainId
 */
export function getDappParam(client: ApiClient): Promise<GetDappParamReturnType> {
  return client.call('dappParam');
}
