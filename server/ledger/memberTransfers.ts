/**
 * Member-to-member transfers as a flow of the ledger engine (server/ledger/engine.ts), ready for WPOS's
 * transferWpos: one linked leg from the sender's account to the recipient's, at most once per the sender's request
 * id. The route decides who may receive (docs/API.md: only the caller's getRentValidBindMemberAddress list, else 3004)
 * and passes that as `recipientAllowed`; the engine checks the balance (3001) under both accounts' locks.
 */
import { formatMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import type { Asset } from './accounts';
import type { LedgerRequest } from './engine';

export interface MemberTransferRequest {
  /** The contract name of the endpoint (the at-most-once key's endpoint), e.g. transferWpos. */
  endpoint: string;
  asset: Asset;
  fromMemberId: number;
  toMemberId: number;
  /** Minor units, > 0 (the contract's amount schema). */
  amount: bigint;
  /** The smallest amount allowed (dappParam minTransfer), minor units. */
  minimum: bigint;
  /** Whether the route found the recipient among those the sender may pay. */
  recipientAllowed: boolean;
  requestId: string;
  now: Date;
}

/**
 * A transfer as the engine's request: refused with 3004 for the sender itself or a recipient the route did not
 * allow, 3002 below the minimum; otherwise one `transfer` leg, answered `{ id, amount, status: 'done' }` with the
 * ledger transfer's id.
 *
 * @param request - endpoint, asset, the two members, amount, minimum, request id, time
 * @returns the ledger request
 * @example
 * const outcome = await ledger.post((config) => memberTransferRequest({ ...input, minimum: toMinor(config.minTransfer) }), now);
 */
export function memberTransferRequest(request: MemberTransferRequest): LedgerRequest {
  const { endpoint, asset, fromMemberId, toMemberId, amount, requestId, now } = request;
  const refusal =
    fromMemberId === toMemberId || !request.recipientAllowed
      ? ApiCode.recipientInvalid
      : amount < request.minimum
        ? ApiCode.amountOutOfLimits
        : undefined;
  return {
    key: { scope: `member:${fromMemberId}`, endpoint, requestId, body: { asset, to: toMemberId, amount: formatMinor(amount) } },
    now,
    reject: refusal,
    legs: [{ asset, type: 'transfer', from: { member: fromMemberId }, to: { member: toMemberId }, amount }],
    result: { id: '$transfer', amount: formatMinor(amount), status: 'done' },
  };
}
