/**
 * The server's failures, one @fastify/error class per docs/API.md code (as fastify-type-provider-zod's src/errors.ts
 * defines its own). Each carries the HTTP status from api-schema/codes.ts; the error handler reads the envelope
 * code back with apiCodeOf. Messages are short English for logs and curl users; the client shows Common.{code}.
 */
import createError, { type FastifyErrorConstructor } from '@fastify/error';
import { ApiCode, httpStatusOf, type ApiCodeValue } from '../api-schema/codes';

const apiCodes = new Map<string, ApiCodeValue>();
const byApiCode = new Map<ApiCodeValue, FastifyErrorConstructor<{ code: string }, [detail?: string]>>();

function defineApiError<Args extends unknown[] = []>(code: string, apiCode: ApiCodeValue, message: string): FastifyErrorConstructor<{ code: string }, Args> {
  apiCodes.set(code, apiCode);
  const constructor = createError<Args>(code, message, httpStatusOf[apiCode]);
  // The first class of a code is the one a stored rejection comes back as.
  if (!byApiCode.has(apiCode)) byApiCode.set(apiCode, constructor as unknown as FastifyErrorConstructor<{ code: string }, [detail?: string]>);
  return constructor;
}

/** 1001: a request field fails its schema; the message is the field name alone (docs/API.md, "Codes"). */
export const InvalidParametersError = defineApiError<[field: string]>('MD_INVALID_PARAMETERS', ApiCode.invalidParameters, '%s');
/** 1002: no token, or an unknown, expired or revoked one. */
export const NotSignedInError = defineApiError('MD_NOT_SIGNED_IN', ApiCode.notSignedIn, 'Not signed in');
/** 1003: a temporary token (recommender not bound) on a member-only endpoint. */
export const BindRequiredError = defineApiError('MD_BIND_REQUIRED', ApiCode.bindRequired, 'Recommender not bound yet');
/** 1004: the sign-in nonce is unknown, expired, used, or the message is outside its validity window. */
export const NonceInvalidError = defineApiError('MD_NONCE_INVALID', ApiCode.nonceInvalid, 'Sign-in nonce or message expired, unknown or used');
/** 1005: the signature is not the message address's, or domain, URI or chain is wrong. */
export const SignatureInvalidError = defineApiError('MD_SIGNATURE_INVALID', ApiCode.signatureInvalid, 'Signature or message binding invalid');
/** 1006: an operator without the role an operator call needs (docs/API.md, "Operators"). */
export const RoleRequiredError = defineApiError('MD_ROLE_REQUIRED', ApiCode.roleRequired, 'Operator role required');
/** 1007: an operator acting for themselves (their own member address, or their own request to confirm). */
export const SelfActRefusedError = defineApiError('MD_SELF_ACT_REFUSED', ApiCode.selfActRefused, 'An operator cannot act for themselves');
/**
 * 1006 as well: a call made with the desk's session cookie whose Origin is foreign, or a state-changing one without
 * the session's X-CSRF-Token. Not 1002: the session holds, this request just does not prove it comes from the desk.
 */
export const CsrfRefusedError = defineApiError('MD_CSRF_REFUSED', ApiCode.roleRequired, 'Cookie call without its X-CSRF-Token, or from a foreign Origin');
/** 2001 */
export const InviteCodeUnknownError = defineApiError('MD_INVITE_CODE_UNKNOWN', ApiCode.inviteCodeUnknown, 'Invite code unknown');
/** 2002 */
export const RecommenderAlreadyBoundError = defineApiError('MD_RECOMMENDER_BOUND', ApiCode.recommenderAlreadyBound, 'Recommender already bound');
/** 2003 */
export const BindCycleError = defineApiError('MD_BIND_CYCLE', ApiCode.bindCycle, 'Cannot bind yourself or your own downline');
/** 3001: the member's balance does not cover the amount. */
export const InsufficientBalanceError = defineApiError('MD_INSUFFICIENT_BALANCE', ApiCode.insufficientBalance, 'Insufficient balance');
/** 3002: the amount is outside the app config's limits (min, max, daily cap). */
export const AmountOutOfLimitsError = defineApiError('MD_AMOUNT_OUT_OF_LIMITS', ApiCode.amountOutOfLimits, 'Amount outside the limits');
/** 3003: the request id was used before with another body. */
export const RequestIdReusedError = defineApiError('MD_REQUEST_ID_REUSED', ApiCode.requestIdReused, 'Request id reused with a different body');
/** 3004: the recipient is the caller itself, an upline or a stranger (not in getRentValidBindMemberAddress). */
export const RecipientInvalidError = defineApiError('MD_RECIPIENT_INVALID', ApiCode.recipientInvalid, 'Recipient not in your team');
/** 3005: the first request with this request id is still running. */
export const RequestInProgressError = defineApiError('MD_REQUEST_IN_PROGRESS', ApiCode.requestInProgress, 'A request with this request id is still being processed');
/** 3006: the withdrawal was already decided the other way. */
export const AlreadyDecidedError = defineApiError('MD_ALREADY_DECIDED', ApiCode.alreadyDecided, 'Already decided otherwise');
/**
 * 3007: the chain's node did not answer (down, lagging, or refusing); nothing was moved, try again later. The node's
 * own message stays out of the answer (viem's name the RPC URL, which carries the provider's key).
 */
export const ChainUnavailableError = defineApiError('MD_CHAIN_UNAVAILABLE', ApiCode.chainUnavailable, 'The chain cannot be read now; try again later');
/** 3008: an operator froze the member's withdrawals (docs/API.md, "Operators: finance calls"). */
export const WithdrawalsFrozenError = defineApiError('MD_WITHDRAWALS_FROZEN', ApiCode.withdrawalsFrozen, "This member's account is frozen");

/** 3010: payouts paused on doubt stay paused while a cause still holds (server/chain/payer/pause.ts). */
export const PayoutsDoubtError = defineApiError('MD_PAYOUTS_DOUBT', ApiCode.payoutsDoubt, 'A cause of the payout pause still holds');
/** 3009: above the operators' policy for the act (docs/API.md, "Operators: the policy"). */
export const PolicyLimitError = defineApiError<[detail?: string]>('MD_POLICY_LIMIT', ApiCode.policyLimit, "Above what the operators' policy allows%s");
/** 4004 */
export const NotFoundError = defineApiError('MD_NOT_FOUND', ApiCode.notFound, 'Not found');
/** 4290 */
export const TooManyRequestsError = defineApiError('MD_TOO_MANY_REQUESTS', ApiCode.tooManyRequests, 'Too many requests');

/**
 * The envelope code of an error thrown by server code, if it is one of ours.
 *
 * @param error - anything caught
 * @returns the docs/API.md code, or undefined for foreign errors
 * @example
 * apiCodeOf(new NotFoundError()); // 4004
 */
export function apiCodeOf(error: unknown): ApiCodeValue | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error) || typeof error.code !== 'string') return undefined;
  return apiCodes.get(error.code);
}

/**
 * Rebuilds the error of a stored rejection (server/ledger/idempotency.ts), so a repeat answers exactly as the first
 * request did.
 *
 * @param apiCode - the stored envelope code
 * @param message - the stored message (the field name of a 1001); without it, the code's own message
 * @returns the error to throw
 * @example
 * throw errorOfApiCode(3001, 'Insufficient balance');
 */
export function errorOfApiCode(apiCode: ApiCodeValue, message?: string): Error {
  const constructor = byApiCode.get(apiCode);
  if (!constructor) throw new Error(`no error class for code ${apiCode}`);
  const error = new constructor(message);
  if (message !== undefined) error.message = message;
  return error;
}
