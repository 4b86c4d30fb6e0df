/**
 * Transferring WPOS to a member of the team (docs/API.md "WPOS" transferWpos), an instance of the money-flow skeleton
 * (machines/shared/moneyFlow.ts). The member picks a recipient from the getRentValidBindMemberAddress list or pastes
 * one, and types an amount; both are checked as typed: the address's form and checksum, then whether it is the
 * member's own or outside the list (both 3004 on the server, so refused before any request), the amount against
 * minTransfer and the WPOS balance. The server's refusals fixed by editing are 3001, 3002, 3003 and 3004.
 */
import type * as z from 'zod/mini';
import { ApiCode } from '../../api-schema/codes';
import type { transferWpos } from '../../api-schema/wpos';
import { checkAddress, checksummed, sameAddress, type AddressError } from '../shared/address';
import { checkAmount, normalizeAmount } from '../shared/amount';
import type { Answer } from '../shared/answer';
import { createMoneyFlowMachine, type MoneyForm, type SubmitInput } from '../shared/moneyFlow';

export interface TransferInput {
  /** The member's own address (meInfo). */
  ownAddress: string;
  /** Who may receive: getRentValidBindMemberAddress, as the server answered it. */
  recipients: readonly string[];
  /** dappParam minTransfer. */
  minTransfer: string;
  /** meInfo wposBalance when the flow started. */
  balance: string;
}

/** What transferWpos takes besides the request id: the checksummed address and the normalized amount. */
export interface TransferBody {
  toAddress: string;
  amount: string;
}

export type TransferResult = z.output<typeof transferWpos.result>;
export type TransferAnswer = Answer<TransferResult>;
export type SubmitTransferInput = SubmitInput<TransferBody>;

/** Why a recipient cannot receive: its form, or who it is. */
export type RecipientError = AddressError | 'self' | 'notInTeam';

/**
 * Checks a typed recipient against the member and the list.
 *
 * @example checkRecipient('0x12', input) // 'format'
 */
export function checkRecipient(text: string, input: TransferInput): RecipientError | null {
  const error = checkAddress(text);
  if (error) return error;
  if (sameAddress(text, input.ownAddress)) return 'self';
  return input.recipients.some((recipient) => sameAddress(recipient, text)) ? null : 'notInTeam';
}

export const transferMachine = createMoneyFlowMachine<TransferInput, TransferBody, TransferResult>({
  id: 'transfer',
  fields: { toAddress: '', amount: '' },
  check: (form: MoneyForm, input) => ({
    toAddress: checkRecipient(form.toAddress ?? '', input),
    amount: checkAmount(form.amount ?? '', { min: input.minTransfer, balance: input.balance }),
  }),
  body: (form) => ({
    toAddress: checksummed(form.toAddress ?? '') ?? form.toAddress ?? '',
    amount: normalizeAmount(form.amount ?? '') ?? form.amount ?? '',
  }),
  editCodes: [ApiCode.insufficientBalance, ApiCode.amountOutOfLimits, ApiCode.requestIdReused, ApiCode.recipientInvalid],
  describe: {
    editing: 'transfer.editing',
    done: 'transfer.done',
  },
});

export type TransferMachine = typeof transferMachine;
