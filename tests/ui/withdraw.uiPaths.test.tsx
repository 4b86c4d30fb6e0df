/**
 * The withdraw machine's generated paths, replayed through the rendered sheet over /me (/me?sheet=withdraw) by the
 * money flows' shared harness (tests/ui/support/moneyFlowUiPaths.ts): the amount typed, its error, the fee and what
 * arrives, the summary and the receipt, and every withdrawCredit call carrying the path's amount and request id;
 * then the sheet's own behaviour (opening and closing in the URL, the records after a withdrawal).
 */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { normalizeAmount, subtractAmounts } from '../../machines/shared/amount';
import { formatAmount } from '../../src/components/amountFormat';
import { withdrawInput, withdrawModel, withdrawRequestId } from '../../scripts/machineGraph/withdraw.model';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testDappParam, testMeInfo } from '../support/fakeApi';
import { describeMoneyFlowUiPaths } from './support/moneyFlowUiPaths';
import { renderApp } from './support/renderApp';
import { expectAlert, translated } from './support/screenQueries';

const member = { ...testMeInfo(), creditBalance: withdrawInput.balance };
const signedIn = { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(member) };

const money = (amount: string) => formatAmount(amount, { locale: 'en' });
const limitTexts = {
  min: money(withdrawInput.minWithdraw),
  max: money(withdrawInput.maxWithdraw),
  balance: money(withdrawInput.balance),
  cap: money(withdrawInput.dailyWithdrawCap),
};
const amountField = (label: string) => screen.getByLabelText<HTMLInputElement>(label);

await describeMoneyFlowUiPaths({
  model: withdrawModel,
  url: '/me?sheet=withdraw',
  texts: 'credit:withdraw',
  endpoint: 'withdrawCredit',
  requestId: withdrawRequestId,
  stored: signedIn,
  api: (api) => api.answer('meInfo', { code: 0, result: member }),
  change: async (app, _field, value) => {
    const field = amountField(app.i18n.t('credit:withdraw.amount.label'));
    await app.user.clear(field);
    if (value !== '') await app.user.type(field, value);
  },
  body: (context) => ({ amount: normalizeAmount(context.form.amount ?? '') }),
  expectEditing: (t, context) => {
    const amount = context.form.amount ?? '';
    const fieldError = context.fieldErrors.amount ?? null;
    const field = amountField(t('credit:withdraw.amount.label'));
    expect(field.value).toBe(amount);
    const shown = fieldError && amount !== '' ? t(`credit:withdraw.amount.errors.${fieldError}`, limitTexts) : null;
    if (shown) expectAlert(shown);
    else if (context.error) expectAlert(t(`common:Common.${context.error.code}`));
    else expect(field.getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByRole('button', { name: t('credit:withdraw.next') }).hasAttribute('disabled')).toBe(fieldError !== null);
  },
  expectConfirming: (t, context) => {
    expect(screen.getByText(t('credit:withdraw.receive')).nextSibling?.textContent).toBe(
      `${money(subtractAmounts(context.form.amount ?? '', withdrawInput.withdrawFee) ?? '')} CREDIT`,
    );
  },
  expectDone: (t, context) => {
    // The status in words and what happens next, as the selector beside the machine says (pending: review first).
    const result = context.result as { status?: string } | null;
    expect(result?.status).toBe('pending');
    expect(screen.getByText(t('credit:records.withdrawalStatus.pending'))).toBeTruthy();
    expect(screen.getByRole('note').textContent).toBe(t('credit:withdraw.done.next.review'));
  },
  notDrivable: [
    {
      key: 'withdraw.submitting|xstate.error.actor.submit|0',
      reason: 'xstate.error.actor.submit: the API client never rejects: every failure is an answer with a code',
    },
  ],
});

describe('/me: the withdrawal sheet', () => {
  beforeEach(() => {
    vi.spyOn(crypto, 'randomUUID').mockReturnValue(withdrawRequestId as ReturnType<typeof crypto.randomUUID>);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('says withdrawals are paused, with the reason, while the app config says payouts are; nothing while they go on', async () => {
    const paused = { ...testDappParam, withdrawalsPaused: { since: '2026-11-22T08:00:00.000Z', causes: ['reconcile'] } };
    const app = await renderApp({
      path: '/me?sheet=withdraw',
      stored: signedIn,
      api: (api) => {
        api.answer('meInfo', { code: 0, result: member });
        api.answer('dappParam', { code: 0, result: paused });
      },
    });
    const t = translated(app);
    const notice = await screen.findByText(t('credit:withdraw.paused.title'));
    expect(notice.closest('[role="status"]')?.textContent).toBe(
      `${t('credit:withdraw.paused.title')} ${t('credit:withdraw.paused.cause.reconcile')} ${t('credit:withdraw.paused.then')}`,
    );
    // The form stays: a withdrawal asked for now is accepted and waits.
    expect(screen.getByLabelText(t('credit:withdraw.amount.label'))).toBeTruthy();
  });

  it('says nothing of a pause while payouts go on', async () => {
    const app = await renderApp({ path: '/me?sheet=withdraw', stored: signedIn, api: (api) => api.answer('meInfo', { code: 0, result: member }) });
    const t = translated(app);
    await screen.findByLabelText(t('credit:withdraw.amount.label'));
    expect(screen.queryByText(t('credit:withdraw.paused.title'))).toBeNull();
  });

  it('checks the amount as it is typed and shows the fee and what arrives', async () => {
    const app = await renderApp({ path: '/me?sheet=withdraw', stored: signedIn, api: (api) => api.answer('meInfo', { code: 0, result: member }) });
    const t = translated(app);
    const field = await screen.findByLabelText(t('credit:withdraw.amount.label'));
    const next = () => screen.getByRole('button', { name: t('credit:withdraw.next') });
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(next().hasAttribute('disabled')).toBe(true);
    for (const [value, error] of [
      ['1.1234567', 'tooManyDecimals'],
      ['0', 'notPositive'],
      ['5', 'belowMin'],
      ['200', 'aboveBalance'],
      ['12,5', 'format'],
    ] as const) {
      await app.user.clear(field);
      await app.user.type(field, value);
      expectAlert(t(`credit:withdraw.amount.errors.${error}`, limitTexts));
      expect(field.getAttribute('aria-invalid')).toBe('true');
      expect(field.getAttribute('aria-describedby')).toContain('withdraw-amount-error');
    }
    await app.user.clear(field);
    await app.user.type(field, '12.5');
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(screen.getByText(t('credit:withdraw.fee')).nextSibling?.textContent).toBe('1.00 CREDIT');
    expect(screen.getByText(t('credit:withdraw.receive')).nextSibling?.textContent).toBe('11.50 CREDIT');
    expect(next().hasAttribute('disabled')).toBe(false);
  });

  it('opens from /me with its state in the URL; the back button, Escape and a tap on the backdrop close it', async () => {
    const app = await renderApp({ path: '/me', stored: signedIn, api: (api) => api.answer('meInfo', { code: 0, result: member }) });
    const t = translated(app);
    await app.user.click(await screen.findByRole('button', { name: t('me:credit.withdraw') }));
    expect(await screen.findByRole('dialog', { name: t('credit:withdraw.title') })).toBeTruthy();
    expect(app.router.state.location.search).toBe('?sheet=withdraw');
    await act(() => app.router.navigate(-1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(app.router.state.location.search).toBe('');
    expect(screen.getByRole('link', { name: t('me:credit.records') }).getAttribute('href')).toBe('/me/credit-records');

    // jsdom has no showModal, so neither the focus move nor Escape's cancel event: the browser's part is checked in
    // tests/e2e/credit.spec.ts; here the cancel event Escape fires, and a click on the dialog's own box (the backdrop).
    await app.user.click(screen.getByRole('button', { name: t('me:credit.withdraw') }));
    const sheet = await screen.findByRole('dialog', { name: t('credit:withdraw.title') });
    expect(sheet.tagName).toBe('DIALOG');
    expect(sheet.hasAttribute('open')).toBe(true);
    const cancel = new Event('cancel', { cancelable: true });
    act(() => void sheet.dispatchEvent(cancel));
    expect(cancel.defaultPrevented).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(app.router.state.location.search).toBe('');

    await app.user.click(screen.getByRole('button', { name: t('me:credit.withdraw') }));
    await app.user.click(await screen.findByText(t('credit:withdraw.available')));
    expect(screen.getByRole('dialog')).toBeTruthy();
    await app.user.click(screen.getByRole('dialog'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(app.router.state.location.search).toBe('');
  });

  it('closes with its close button when opened directly, and shows the records after a withdrawal', async () => {
    const app = await renderApp({
      path: '/me?sheet=withdraw',
      stored: signedIn,
      api: (api) => {
        api.answer('meInfo', { code: 0, result: member });
        api.answer('withdrawCredit', { code: 0, result: { id: '41', amount: '12.5', fee: '1', status: 'pending' } });
        api.answer('creditRecord', { code: 0, result: { list: [], total: 0, page: 1, pageSize: 20 } });
      },
    });
    const t = translated(app);
    await app.user.click(await screen.findByRole('button', { name: t('credit:withdraw.close') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(app.router.state.location.pathname + app.router.state.location.search).toBe('/me');

    await app.user.click(screen.getByRole('button', { name: t('me:credit.withdraw') }));
    await app.user.type(await screen.findByLabelText(t('credit:withdraw.amount.label')), '12.5');
    await app.user.click(screen.getByRole('button', { name: t('credit:withdraw.next') }));
    const meInfoCalls = app.api.callsTo('meInfo').length;
    await app.user.click(screen.getByRole('button', { name: t('credit:withdraw.confirm.submit') }));
    // Money moved: the balance behind the sheet is read again (auth app.refreshProfile).
    await waitFor(() => expect(app.api.callsTo('meInfo')).toHaveLength(meInfoCalls + 1));
    await app.user.click(await screen.findByRole('button', { name: t('credit:withdraw.done.records') }));
    expect(await screen.findByRole('heading', { level: 1, name: t('credit:records.title') })).toBeTruthy();
    expect(app.api.callsTo('withdrawCredit').map((call) => call.body)).toEqual([{ amount: '12.5', requestId: withdrawRequestId }]);
  });
});
