/**
 * Withdrawing credit (spec: the member area's credit withdrawal; docs/API.md "Member" withdrawCredit and "Money"), an
 * instance of the money-flow skeleton (machines/shared/moneyFlow.ts). The member types an amount, checked as typed
 * against the app config's limits and the balance, with the fixed fee and what arrives shown beside it; confirms a
 * summary; and the withdrawal goes out with the request id created at that moment. The skeleton keeps the id for
 * every retry; the refusals fixed by editing the amount are 3001 (balance), 3002 (limits, today's cap) and 3003
 * (the id was used with another body).
 */
import type * as z from 'zod/mini';
import { ApiCode } from '../../api-schema/codes';
import type { withdrawCredit } from '../../api-schema/member';
import { checkAmount, normalizeAmount } from '../shared/amount';
import type { Answer } from '../shared/answer';
import { createMoneyFlowMachine, type MoneyForm, type SubmitInput } from '../shared/moneyFlow';

/** The limits of app config (dappParam) and the member's balance (meInfo), as decimal strings. */
export interface WithdrawInput {
  minWithdraw: string;
  maxWithdraw: string;
  /** A fixed fee taken from the amount (dappParam withdrawFee). */
  withdrawFee: string;
  /** The most a member may withdraw in one UTC day; only the server knows today's total (3002). */
  dailyWithdrawCap: string;
  /** meInfo creditBalance when the flow started. */
  balance: string;
}

/** What withdrawCredit takes besides the request id. */
export interface WithdrawBody {
  /** The normalized amount ("12.5"). */
  amount: string;
}

/** What withdrawCredit answers (docs/API.md "Member"). */
export type WithdrawResult = z.output<typeof withdrawCredit.result>;
/** The envelope of withdrawCredit: code 0 with the result, or another code (-1 for network failures). */
export type WithdrawAnswer = Answer<WithdrawResult>;
export type SubmitWithdrawalInput = SubmitInput<WithdrawBody>;

const limitsOf = (input: WithdrawInput) => ({ min: input.minWithdraw, max: input.maxWithdraw, balance: input.balance, dailyCap: input.dailyWithdrawCap });

export const withdrawMachine = createMoneyFlowMachine<WithdrawInput, WithdrawBody, WithdrawResult>({
  id: 'withdraw',
  fields: { amount: '' },
  check: (form: MoneyForm, input) => ({ amount: checkAmount(form.amount ?? '', limitsOf(input)) }),
  body: (form) => ({ amount: normalizeAmount(form.amount ?? '') ?? form.amount ?? '' }),
  editCodes: [ApiCode.insufficientBalance, ApiCode.amountOutOfLimits, ApiCode.requestIdReused],
  describe: {
    editing: 'withdraw.editing',
    done: 'withdraw.done',
  },
});

export type WithdrawMachine = typeof withdrawMachine;
