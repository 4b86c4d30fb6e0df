/**
 * The exchange machine's generated paths through the rendered sheet over /me/wpos (/me/wpos?sheet=exchange): the
 * direction tapped, the amount typed with its error and what arrives at the rate beside it, the summary, and every
 * flashExchange call carrying the path's body and request id (tests/ui/support/moneyFlowUiPaths.ts drives the
 * skeleton's steps).
 */
import { screen } from '@testing-library/react';
import { expect } from 'vitest';
import { directionOf, receivedOf } from '../../machines/exchange/exchangeMachine';
import { formatMinor, normalizeAmount } from '../../machines/shared/amount';
import { exchangeInput, exchangeModel, exchangeRequestId } from '../../scripts/machineGraph/exchange.model';
import { formatAmount } from '../../src/components/amountFormat';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testDappParam, testMeInfo } from '../support/fakeApi';
import { describeMoneyFlowUiPaths, type FlowContext } from './support/moneyFlowUiPaths';
import { expectAlert } from './support/screenQueries';

const member = { ...testMeInfo(), wposBalance: exchangeInput.wposBalance, creditBalance: exchangeInput.creditBalance };
const money = (amount: string) => formatAmount(amount, { locale: 'en' });
const amountField = () => document.getElementById('exchange-amount') as HTMLInputElement;
const receivedText = (context: FlowContext) => {
  const received = receivedOf(context.form, exchangeInput);
  return received === null ? '—' : `${money(formatMinor(received))} ${directionOf(context.form) === 'WPOS' ? 'CREDIT' : 'WPOS'}`;
};

await describeMoneyFlowUiPaths({
  model: exchangeModel,
  url: '/me/wpos?sheet=exchange',
  texts: 'wpos:exchange',
  endpoint: 'flashExchange',
  requestId: exchangeRequestId,
  stored: {
    [STORAGE_KEYS.token]: '"token-bound"',
    [STORAGE_KEYS.userInfo]: JSON.stringify(member),
    [STORAGE_KEYS.dappParam]: JSON.stringify({ ...testDappParam, exchangeRate: exchangeInput.rate }),
  },
  api: (api) => {
    api.answer('meInfo', { code: 0, result: member });
    api.answer('dappParam', { code: 0, result: { ...testDappParam, exchangeRate: exchangeInput.rate } });
    api.answer('getSharePools', { code: 0, result: { list: [] } });
    api.answer('wposRecord', { code: 0, result: { list: [], total: 0, page: 1, pageSize: 20 } });
  },
  change: async (app, name, value) => {
    if (name === 'from') {
      await app.user.click(screen.getByRole('button', { name: app.i18n.t(`wpos:exchange.direction.${value}`) }));
      return;
    }
    await app.user.clear(amountField());
    if (value !== '') await app.user.type(amountField(), value);
  },
  body: (context) => ({ from: directionOf(context.form), amount: normalizeAmount(context.form.amount ?? '') }),
  expectEditing: (t, context) => {
    const direction = directionOf(context.form);
    expect(screen.getByRole('button', { name: t(`wpos:exchange.direction.${direction}`) }).getAttribute('aria-pressed')).toBe('true');
    expect(amountField().value).toBe(context.form.amount ?? '');
    const error = context.fieldErrors.amount ?? null;
    const balance = direction === 'WPOS' ? exchangeInput.wposBalance : exchangeInput.creditBalance;
    if (error && (context.form.amount ?? '') !== '') expectAlert(t(`wpos:exchange.amount.errors.${error}`, { balance: money(balance) }));
    if (context.error) expectAlert(t(`common:Common.${context.error.code}`));
    expect(screen.getByText(t('wpos:exchange.receive')).nextSibling?.textContent).toBe(receivedText(context));
    expect(screen.getByRole('button', { name: t('wpos:exchange.next') }).hasAttribute('disabled')).toBe(error !== null);
  },
  expectConfirming: (t, context) => {
    expect(screen.getByText(t('wpos:exchange.receive')).nextSibling?.textContent).toBe(receivedText(context));
    expect(screen.getByText(t('wpos:exchange.rateLabel')).nextSibling?.textContent).toBe(t('wpos:exchange.rate', { rate: exchangeInput.rate }));
  },
  expectDone: (t) => {
    expect(screen.getByText(t('wpos:exchange.receive')).nextSibling?.textContent).toBe(`${money('3.5')} CREDIT`);
  },
  notDrivable: [
    {
      key: 'exchange.submitting|xstate.error.actor.submit|0',
      reason: 'xstate.error.actor.submit: the API client never rejects: every failure is an answer with a code',
    },
  ],
});
