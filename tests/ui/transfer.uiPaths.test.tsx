/**
 * The transfer machine's generated paths through the rendered sheet over /me/wpos (/me/wpos?sheet=transfer): the
 * recipient and amount typed, their errors beside each field, the summary with the checksummed recipient, and every
 * transferWpos call carrying the path's body and request id (tests/ui/support/moneyFlowUiPaths.ts drives the skeleton's
 * steps).
 */
import { screen } from '@testing-library/react';
import { expect } from 'vitest';
import { checksummed } from '../../machines/shared/address';
import { normalizeAmount, subtractAmounts } from '../../machines/shared/amount';
import { checkRecipient, type TransferInput } from '../../machines/wpos/transferMachine';
import { formatAmount } from '../../src/components/amountFormat';
import { teamMembers, transferInput, transferModel, transferRequestId } from '../../scripts/machineGraph/transfer.model';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testMeInfo } from '../support/fakeApi';
import { describeMoneyFlowUiPaths, type FlowContext } from './support/moneyFlowUiPaths';
import { expectAlert } from './support/screenQueries';

const member = { ...testMeInfo(transferInput.ownAddress), wposBalance: transferInput.balance };
const money = (amount: string) => formatAmount(amount, { locale: 'en' });
const numbers = { min: money(transferInput.minTransfer), balance: money(transferInput.balance) };
const input = transferInput satisfies TransferInput;
const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label);

await describeMoneyFlowUiPaths({
  model: transferModel,
  url: '/me/wpos?sheet=transfer',
  texts: 'wpos:transfer',
  endpoint: 'transferWpos',
  requestId: transferRequestId,
  stored: { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(member) },
  api: (api) => {
    api.answer('meInfo', { code: 0, result: member });
    api.answer('getRentValidBindMemberAddress', { code: 0, result: { list: [...teamMembers] } });
    api.answer('getSharePools', { code: 0, result: { list: [] } });
    api.answer('wposRecord', { code: 0, result: { list: [], total: 0, page: 1, pageSize: 20 } });
  },
  change: async (app, name, value) => {
    const label = app.i18n.t(name === 'toAddress' ? 'wpos:transfer.recipient.label' : 'wpos:transfer.amount.label');
    await app.user.clear(field(label));
    if (value !== '') await app.user.type(field(label), value);
  },
  body: (context) => ({
    toAddress: checksummed(context.form.toAddress ?? ''),
    amount: normalizeAmount(context.form.amount ?? ''),
  }),
  expectEditing: (t, context) => {
    const recipient = context.form.toAddress ?? '';
    const amount = context.form.amount ?? '';
    expect(field(t('wpos:transfer.recipient.label')).value).toBe(recipient);
    expect(field(t('wpos:transfer.amount.label')).value).toBe(amount);
    const recipientError = recipient === '' ? null : checkRecipient(recipient, input);
    if (recipientError) expectAlert(t(`wpos:transfer.recipient.errors.${recipientError}`));
    const amountError = context.fieldErrors.amount ?? null;
    if (amountError && amount !== '') expectAlert(t(`wpos:transfer.amount.errors.${amountError}`, numbers));
    if (context.error) expectAlert(t(`common:Common.${context.error.code}`));
    const blocked = Object.values(context.fieldErrors).some((error) => error !== null);
    expect(screen.getByRole('button', { name: t('wpos:transfer.next') }).hasAttribute('disabled')).toBe(blocked);
  },
  expectConfirming: (t, context: FlowContext) => {
    expect(screen.getByText(t('wpos:transfer.confirm.recipient')).nextSibling?.textContent).toBe(checksummed(context.form.toAddress ?? ''));
    expect(screen.getByText(t('wpos:transfer.remaining')).nextSibling?.textContent).toBe(
      `${money(subtractAmounts(transferInput.balance, context.form.amount ?? '') ?? '')} WPOS`,
    );
  },
  expectDone: (t) => {
    expect(screen.getByText(t('wpos:transfer.confirm.amount')).nextSibling?.textContent).toBe(`${money('12.5')} WPOS`);
  },
  notDrivable: [
    {
      key: 'transfer.submitting|xstate.error.actor.submit|0',
      reason: 'xstate.error.actor.submit: the API client never rejects: every failure is an answer with a code',
    },
  ],
});
