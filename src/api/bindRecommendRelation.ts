import type * as z from 'zod/mini';
import type { bindRecommendRelation as bindRecommendRelationEndpoint } from '../../api-schema/auth';
import type { ApiCode } from '../../api-schema/codes';
import type { ApiClient, ApiFailure, ApiResult } from './client';

export type BindRecommendRelationParameters = z.input<typeof bindRecommendRelationEndpoint.body>;
export type BindRecommendRelationReturnType = ApiResult<z.output<typeof bindRecommendRelationEndpoint.result>>;
export type BindRecommendRelationErrorType = ApiFailure<
  | typeof ApiCode.clientFailure
  | typeof ApiCode.invalidParameters
  | typeof ApiCode.notSignedIn
  | typeof ApiCode.inviteCodeUnknown
  | typeof ApiCode.recommenderAlreadyBound
  | typeof ApiCode.bindCycle
  | typeof ApiCode.tooManyRequests
  | typeof ApiCode.internal
>;

/**
 * Binds the caller's recommender by invite code (POST /api/member/bindRecommendRelation), with the temporary
 * token; afterwards that token is a main token.
 *
 * @param client - The API client.
 * @param parameters - The recommender's invite code.
 * @returns `{ code, message }`.
 * @example
 * const { code } = await bindRecommendRelation(api, { inviteCode: 'AB12CD' });
 */
export function bindRecommendRelation(
  client: ApiClient,
  parameters: BindRecommendRelationParameters,
): Promise<BindRecommendRelationReturnType> {
  return client.call('bindRecommendRelation', { body: parameters });
}
