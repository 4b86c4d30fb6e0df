import type * as z from 'zod/mini';
import type { memberSignLogin as memberSignLoginEndpoint } from '../../api-schema/auth';
import type { ApiCode } from '../../api-schema/codes';
import type { ApiClient, ApiFailure, ApiResult } from './client';

export type MemberSignLoginParameters = z.input<typeof memberSignLoginEndpoint.body>;
export type MemberSignLoginReturnType = ApiResult<z.output<typeof memberSignLoginEndpoint.result>>;
export type MemberSignLoginErrorType = ApiFailure<
  | typeof ApiCode.clientFailure
  | typeof ApiCode.invalidParameters
  | typeof ApiCode.nonceInvalid
  | typeof ApiCode.signatureInvalid
  | typeof ApiCode.inviteCodeUnknown
  | typeof ApiCode.bindCycle
  | typeof ApiCode.chainUnavailable
  | typeof ApiCode.tooManyRequests
  | typeof ApiCode.internal
>;

/**
 * Signs in with an EIP-4361 message and its signature (POST /api/member/memberSignLogin); binds the recommender
 * in the same step when an invite code is given. Any failure, an exception included, comes back as a code
 * (spec section 8: a sign-in exception maps to -1).
 *
 * @param client - The API client.
 * @param parameters - The SIWE message, the signature and an optional invite code.
 * @returns `{ code, message, result?: { auth, isFinishedBind } }`.
 * @example
 * const { code, result } = await memberSignLogin(api, { message, signature, inviteCode: 'AB12CD' });
 */
export function memberSignLogin(client: ApiClient, parameters: MemberSignLoginParameters): Promise<MemberSignLoginReturnType> {
  return client.call('memberSignLogin', { body: parameters });
}
