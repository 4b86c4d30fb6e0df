/**
 * The flash exchange between WPOS and credit (docs/API.md "WPOS" flashExchange and "Money": the rate is CREDIT per 1 WPOS,
 * each result rounded down to 6 decimals), an instance of the money-flow skeleton (machines/shared/moneyFlow.ts).
 * The member picks the direction and types what to pay; the amount is checked as typed against the balance of the
 * asset paid, and an amount that would receive 0 (the server's 3002) is refused before any request. What arrives is
 * previewed with the one amount rule's exchangeReceived, the function the server moves money with.
 */
import type * as z from 'zod/mini';
import { exchangeReceived, type ExchangeFrom } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import type { flashExchange } from '../../api-schema/wpos';
import { checkAmount, normalizeAmount, parseAmount, type AmountError } from '../shared/amount';
import type { Answer } from '../shared/answer';
import { createMoneyFlowMachine, type MoneyForm, type SubmitInput } from '../shared/moneyFlow';

export type { ExchangeFrom } from '../../api-schema/amount';

export interface ExchangeInput {
  /** dappParam exchangeRate: CREDIT per 1 WPOS. */
  rate: string;
  /** meInfo balances when the flow started. */
  wposBalance: string;
  creditBalance: string;
}

export interface ExchangeBody {
  from: ExchangeFrom;
  amount: string;
}

export type ExchangeResult = z.output<typeof flashExchange.result>;
export type ExchangeAnswer = Answer<ExchangeResult>;
export type SubmitExchangeInput = SubmitInput<ExchangeBody>;

/** Why an exchange amount cannot be sent: an amount error, or a result that rounds to nothing. */
export type ExchangeAmountError = AmountError | 'receivesNothing';

/** The direction a form names (WPOS unless it says CREDIT). */
export const directionOf = (form: MoneyForm): ExchangeFrom => (form.from === 'CREDIT' ? 'CREDIT' : 'WPOS');

/** What the form would receive, in minor units; null while the amount is no amount. */
export function receivedOf(form: MoneyForm, input: ExchangeInput): bigint | null {
  const paid = parseAmount(form.amount ?? '');
  const rate = parseAmount(input.rate);
  return paid === null || rate === null ? null : exchangeReceived(paid, directionOf(form), rate);
}

/**
 * Checks the amount to pay: its form, the balance of the asset paid, then that something arrives.
 *
 * @example checkExchangeAmount({ from: 'CREDIT', amount: '0.000001' }, { rate: '2', wposBalance: '1', creditBalance: '1' }) // 'receivesNothing'
 */
export function checkExchangeAmount(form: MoneyForm, input: ExchangeInput): ExchangeAmountError | null {
  const balance = directionOf(form) === 'WPOS' ? input.wposBalance : input.creditBalance;
  const error = checkAmount(form.amount ?? '', { balance });
  if (error) return error;
  return receivedOf(form, input) === 0n ? 'receivesNothing' : null;
}

export const exchangeMachine = createMoneyFlowMachine<ExchangeInput, ExchangeBody, ExchangeResult>({
  id: 'exchange',
  fields: { from: 'WPOS', amount: '' },
  check: (form: MoneyForm, input) => ({ from: null, amount: checkExchangeAmount(form, input) }),
  body: (form) => ({ from: directionOf(form), amount: normalizeAmount(form.amount ?? '') ?? form.amount ?? '' }),
  editCodes: [ApiCode.insufficientBalance, ApiCode.amountOutOfLimits, ApiCode.requestIdReused],
  describe: {
    editing: 'exchange.editing',
    done: 'exchange.done',
  },
});

export type ExchangeMachine = typeof exchangeMachine;
