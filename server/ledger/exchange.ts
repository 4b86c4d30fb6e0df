/**
 * The flash exchange (docs/API.md "WPOS" and "Money") as a flow of the ledger engine (server/ledger/engine.ts): two
 * linked legs, what the member pays into the paid asset's exchange account and what the member receives out of the
 * other asset's, at the rate in the app config, rounded down by the one amount rule (api-schema/amount.ts). Both
 * move or neither; each is an `exchange` record of its asset.
 */
import { exchangeReceived, formatMinor, toMinor, type ExchangeFrom } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import type { AppConfig } from '../config/appConfig';
import { systemAccountId } from './accounts';
import type { LedgerRequest, Leg } from './engine';

export interface ExchangeRequest {
  memberId: number;
  /** The asset the member pays. */
  from: ExchangeFrom;
  /** Minor units of `from`, > 0 (the contract's amount schema). */
  amount: bigint;
  requestId: string;
  now: Date;
}

/**
 * An exchange as the engine's request: refused with 3002 when it would receive 0; otherwise the two legs, answered
 * `{ id, paid, received, rate }` with the first leg's ledger transfer id. The balance of `from` must cover the
 * amount (3001, checked by the engine under the account's lock).
 *
 * @param request - member, direction, amount, request id, time
 * @param config - the app config the batch read (its exchangeRate)
 * @returns the ledger request
 * @example
 * const outcome = await ledger.post((config) => exchangeRequest({ memberId, from: 'WPOS', amount: 10_000_000n, requestId, now }, config), now);
 */
export function exchangeRequest(request: ExchangeRequest, config: AppConfig): LedgerRequest {
  const { memberId, from, amount, requestId, now } = request;
  const to: ExchangeFrom = from === 'WPOS' ? 'CREDIT' : 'WPOS';
  const rate = toMinor(config.exchangeRate);
  const received = exchangeReceived(amount, from, rate);
  const legs: Leg[] = [{ asset: from, type: 'exchange', from: { member: memberId }, to: { system: systemAccountId(from, 'exchange') }, amount }];
  if (received > 0n) legs.push({ asset: to, type: 'exchange', from: { system: systemAccountId(to, 'exchange') }, to: { member: memberId }, amount: received });
  return {
    key: { scope: `member:${memberId}`, endpoint: 'flashExchange', requestId, body: { from, amount: formatMinor(amount) } },
    now,
    reject: received === 0n ? ApiCode.amountOutOfLimits : undefined,
    legs,
    result: { id: '$transfer', paid: formatMinor(amount), received: formatMinor(received), rate: formatMinor(rate) },
  };
}
