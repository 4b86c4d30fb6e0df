/**
 * The withdraw machine's generated paths, replayed through the rendered sheet over /me (/me?sheet=withdraw). Each
 * path event becomes typing in the amount field, a click by role and name (Next, Confirm withdrawal, Change amount,
 * Stop waiting, Try again, Check again) or the fake API's answer to the held withdrawCredit call; the member's
 * confirmation gets the model's request id from a stubbed crypto.randomUUID. After each step the sheet must show
 * what the path's state means (the field and its error, the summary, the wait, the failure, the receipt, or sign-in
 * after 1002), and every withdrawCredit call must carry the path's amount and request id.
 *
 * The sheet's actor lives inside the route (WithdrawContext.Provider), out of the test's reach, so the transitions
 * walked through the UI are those of the replayed paths, each step of which the page confirmed.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WithdrawInput, WithdrawResult } from '../../machines/credit/withdrawMachine';
import type { MoneyFlowContext } from '../../machines/shared/moneyFlow';
import { normalizeAmount, subtractAmounts } from '../../machines/shared/amount';
import { formatAmount } from '../../src/components/amountFormat';
import type { ModelPath, PathStep } from '../../scripts/machineGraph/modelPaths';
import { walkPath } from '../../scripts/machineGraph/pathWalker';
import { withdrawInput, withdrawModel, withdrawRequestId } from '../../scripts/machineGraph/withdraw.model';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testMeInfo } from '../support/fakeApi';
import { renderApp } from '../support/renderApp';
import type { RenderedApp } from '../support/renderApp';
import { expectAlert, translated } from '../support/screenQueries';
import { describeUiPath, initialStep, mapPath, planUiPaths } from '../support/uiPathPlan';
import type { StepMapper } from '../support/uiPathPlan';

type WithdrawContext = MoneyFlowContext<WithdrawInput, WithdrawResult>;

type WithdrawUiAction =
  | { kind: 'type'; value: string }
  | { kind: 'click'; key: string }
  | { kind: 'answer'; code: number; result: unknown };

const member = { ...testMeInfo(), creditBalance: withdrawInput.balance };
const signedIn = { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(member) };

const money = (amount: string) => formatAmount(amount, { locale: 'en' });
const limitTexts = {
  min: money(withdrawInput.minWithdraw),
  max: money(withdrawInput.maxWithdraw),
  balance: money(withdrawInput.balance),
  cap: money(withdrawInput.dailyWithdrawCap),
};

const mapWithdrawStep: StepMapper<WithdrawUiAction> = (step) => {
  const event = step.event as { type: string } & Record<string, unknown>;
  switch (event.type) {
    case 'field.change':
      return { kind: 'action', action: { kind: 'type', value: String(event.value) } };
    case 'user.submit':
      return { kind: 'action', action: { kind: 'click', key: 'credit:withdraw.next' } };
    case 'user.edit':
      return { kind: 'action', action: { kind: 'click', key: 'credit:withdraw.confirm.edit' } };
    case 'user.confirm':
      return { kind: 'action', action: { kind: 'click', key: 'credit:withdraw.confirm.submit' } };
    case 'user.cancel':
      return { kind: 'action', action: { kind: 'click', key: 'credit:withdraw.submitting.cancel' } };
    case 'user.retry':
      return { kind: 'action', action: { kind: 'click', key: 'retry' } };
    case 'xstate.done.actor.submit': {
      const output = event.output as { code: number; result: unknown };
      return { kind: 'action', action: { kind: 'answer', code: output.code, result: output.result } };
    }
    case 'xstate.error.actor.submit':
      return { kind: 'unmapped', reason: 'the API client never rejects: every failure is an answer with a code' };
    default:
      return { kind: 'unmapped', reason: `no UI for ${event.type}` };
  }
};

const plan = await planUiPaths(withdrawModel, mapWithdrawStep);
const walkedInUi = new Set<string>();

beforeEach(() => {
  vi.spyOn(crypto, 'randomUUID').mockReturnValue(withdrawRequestId as ReturnType<typeof crypto.randomUUID>);
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function perform(app: RenderedApp, action: WithdrawUiAction, before: PathStep): Promise<void> {
  const t = translated(app);
  switch (action.kind) {
    case 'type': {
      const field = screen.getByLabelText(t('credit:withdraw.amount.label'));
      await app.user.clear(field);
      if (action.value !== '') await app.user.type(field, action.value);
      return;
    }
    case 'click': {
      const key =
        action.key === 'retry' ? (before.value === 'interrupted' ? 'credit:withdraw.interrupted.retry' : 'credit:withdraw.failed.retry') : action.key;
      await app.user.click(screen.getByRole('button', { name: t(key) }));
      return;
    }
    case 'answer': {
      const call = await app.api.next('withdrawCredit');
      const context = before.context as WithdrawContext;
      const amount = context.form.amount ?? '';
      expect(call.body).toEqual({ amount: normalizeAmount(amount), requestId: context.requestId });
      await act(async () => {
        if (action.code === -1) call.failNetwork();
        else call.answer(action.code === 0 ? { code: 0, result: action.result } : { code: action.code });
        await Promise.resolve();
      });
      return;
    }
  }
}

/** The sheet shows what the step's state means to the member. */
async function expectStep(app: RenderedApp, step: PathStep): Promise<void> {
  const t = translated(app);
  const context = step.context as WithdrawContext;
  const amount = context.form.amount ?? '';
  const fieldError = context.fieldErrors.amount ?? null;
  const button = (key: string) => screen.getByRole('button', { name: t(key) });
  await waitFor(() => {
    switch (step.value) {
      case 'editing': {
        const field = screen.getByLabelText<HTMLInputElement>(t('credit:withdraw.amount.label'));
        expect(field.value).toBe(amount);
        const shown = fieldError && amount !== '' ? t(`credit:withdraw.amount.errors.${fieldError}`, limitTexts) : null;
        if (shown) expectAlert(shown);
        else if (context.error) expectAlert(t(`common:Common.${context.error.code}`));
        else expect(field.getAttribute('aria-invalid')).toBeNull();
        expect(button('credit:withdraw.next').hasAttribute('disabled')).toBe(fieldError !== null);
        return;
      }
      case 'confirming':
        button('credit:withdraw.confirm.submit');
        expect(screen.getByText(t('credit:withdraw.receive')).nextSibling?.textContent).toBe(`${money(subtractAmounts(amount, withdrawInput.withdrawFee) ?? '')} CREDIT`);
        return;
      case 'submitting':
        expect(screen.getAllByRole('status').map((element) => element.textContent)).toContain(t('credit:withdraw.submitting.message'));
        return;
      case 'interrupted':
        expect(screen.getAllByRole('status').map((element) => element.textContent)).toContain(t('credit:withdraw.interrupted.message'));
        button('credit:withdraw.interrupted.retry');
        return;
      case 'failed':
        expectAlert(t(context.error?.code === undefined ? 'common:Common.unknown' : `common:Common.${context.error.code}`));
        button('credit:withdraw.failed.retry');
        return;
      case 'done':
        expect(screen.getAllByRole('status').map((element) => element.textContent)).toContain(t('credit:withdraw.done.title'));
        expect(screen.getByText(t('credit:records.status.pending'))).toBeTruthy();
        return;
      case 'sessionEnded':
        // The API client turned 1002 into server.tokenExpired: the member area goes to sign-in, sheet and all.
        expect(app.router.state.location.pathname).toBe('/login');
        return;
      default:
        throw new Error(`no expectation for ${JSON.stringify(step.value)}`);
    }
  });
}

async function replay(path: ModelPath): Promise<void> {
  const actions = mapPath(withdrawModel, path, mapWithdrawStep);
  if ('reason' in actions) throw new Error(`not drivable: ${actions.reason}`);
  const app = await renderApp({
    path: '/me?sheet=withdraw',
    stored: signedIn,
    api: (api) => {
      api.answer('meInfo', { code: 0, result: member });
      api.hold('withdrawCredit');
    },
  });
  let previous = initialStep(withdrawModel).step;
  await screen.findByRole('dialog', { name: translated(app)('credit:withdraw.title') });
  await expectStep(app, previous);
  for (const [index, step] of path.steps.entries()) {
    const action = actions[index];
    if (!action) throw new Error(`no action for step ${index + 1}`);
    await perform(app, action, previous);
    await expectStep(app, step);
    previous = step;
  }
  for (const key of await walkPath(withdrawModel, path)) walkedInUi.add(key);
}

describe('/me?sheet=withdraw: withdraw machine paths through the rendered sheet', () => {
  it.each(plan.paths.map((path) => [describeUiPath(path), path] as const))('%s', (_, path) => replay(path));

  it(`walks ${plan.planned.size} of the ${plan.transitions.length} withdraw transitions through the sheet`, () => {
    expect(new Set(walkedInUi)).toEqual(new Set(plan.planned.keys()));
    expect(plan.notDrivable).toEqual([
      {
        key: 'withdraw.submitting|xstate.error.actor.submit|0',
        reason: 'xstate.error.actor.submit: the API client never rejects: every failure is an answer with a code',
      },
    ]);
  });
});

describe('/me: the withdrawal sheet', () => {
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
