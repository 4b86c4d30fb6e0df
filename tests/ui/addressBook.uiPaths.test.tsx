/**
 * The address book machine's generated paths through the rendered /buy/shipping-address page, opened from the
 * settlement (?return=) so each address can be chosen (tests/ui/support/routeUiPaths.ts): the rows as the server lists
 * them, the default marked, what each row offers, the delete confirmation, each action's failure with its retry,
 * and deliveryList, deliveryDelete and deliveryEdit (make default) answered with the path's answers.
 */
import { act, screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AddressBookContext } from '../../machines/buy/addressBookMachine';
import { addressBookModel } from '../../scripts/machineGraph/buy.model';
import type { Answer } from '../../machines/shared/answer';
import type { ErrorInfo } from '../../machines/shared/errorInfo';
import type { PathStep } from '../../scripts/machineGraph/modelPaths';
import { paths } from '../../src/app/paths';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testMeInfo } from '../support/fakeApi';
import { renderApp, type RenderedApp } from './support/renderApp';
import { answerWith, describeRouteUiPaths } from './support/routeUiPaths';
import { expectAlert, expectAlerts, translated } from './support/screenQueries';
import type { StepMapper } from './support/uiPathPlan';

type Translate = ReturnType<typeof translated>;
type BookEndpoint = 'deliveryList' | 'deliveryDelete' | 'deliveryEdit';
/** A button by its text key: in an address's row, in the delete confirmation, or the page's only one. */
type BookUiAction = { kind: 'click'; button: string; where: { row: string } | 'dialog' | 'page' } | { kind: 'answer'; endpoint: BookEndpoint; answer: Answer<unknown> };

const settlementPath = paths.settlement.href('mug');
const neverRejects = 'the API client never rejects: every failure is an answer with a code';
const noRefresh = 'no control sends it: the book reads the list when it opens, and again by itself after each change';
const answers: Record<string, BookEndpoint> = {
  'xstate.done.actor.fetchAddresses': 'deliveryList',
  'xstate.done.actor.deleteAddress': 'deliveryDelete',
  'xstate.done.actor.makeDefault': 'deliveryEdit',
};

const mapStep: StepMapper<BookUiAction> = (step, { previous, initial }) => {
  const event = step.event as { type: string } & Record<string, unknown>;
  const click = (button: string, where: { row: string } | 'dialog' | 'page') => ({ kind: 'action' as const, action: { kind: 'click' as const, button, where } });
  const row = { row: String(event.deliveryId) };
  const endpoint = answers[event.type];
  if (endpoint) return { kind: 'action', action: { kind: 'answer', endpoint, answer: event.output as Answer<unknown> } };
  switch (event.type) {
    case 'user.retry':
      return click('common:actions.retry', 'page');
    case 'user.choose':
      return click('buy:book.choose', row);
    case 'user.setDefault':
      return click('buy:book.setDefault', row);
    case 'user.delete':
      return click('buy:book.delete', row);
    case 'user.confirm':
      return click('buy:book.delete', 'dialog');
    case 'user.cancel':
      return click('common:actions.cancel', (previous ?? initial).value === 'confirmingDelete' ? 'dialog' : 'page');
    case 'user.refresh':
      return { kind: 'unmapped', reason: noRefresh };
    default:
      return event.type.startsWith('xstate.error.actor.') ? { kind: 'unmapped', reason: neverRejects } : { kind: 'unmapped', reason: `no UI for ${event.type}` };
  }
};

const addressList = (t: Translate) => screen.getByRole('list', { name: t('buy:book.title') });
const rowOf = (t: Translate, context: AddressBookContext, deliveryId: string) => {
  const index = context.addresses.findIndex((address) => address.deliveryId === deliveryId);
  const row = within(addressList(t)).getAllByRole('listitem')[index];
  if (!row) throw new Error(`no row for ${deliveryId}`);
  return row;
};
const deleteDialog = (t: Translate) => screen.getByRole('dialog', { name: t('buy:book.deleteTitle') });
const errorText = (t: Translate, error: ErrorInfo | null) => t(error?.code === undefined ? 'common:Common.unknown' : `common:Common.${error.code}`);

async function perform(app: RenderedApp, action: BookUiAction, before: PathStep): Promise<void> {
  const t = translated(app);
  const context = before.context as AddressBookContext;
  if (action.kind === 'click') {
    const name = t(action.button);
    const scope = action.where === 'page' ? screen : within(action.where === 'dialog' ? deleteDialog(t) : rowOf(t, context, action.where.row));
    // The sheet's close icon is named Cancel too: the member taps the one that says it.
    const target = scope.getAllByRole('button', { name }).find((element) => element.textContent === name);
    if (!target) throw new Error(`no ${name} button`);
    return app.user.click(target);
  }
  const call = await app.api.next(action.endpoint);
  const target = context.target;
  if (action.endpoint === 'deliveryDelete') expect(call.body).toEqual({ deliveryId: target?.deliveryId });
  // Making an address the default is an edit of it as it is, with isDefault true.
  if (action.endpoint === 'deliveryEdit') expect(call.body).toEqual({ ...target, isDefault: true });
  await act(async () => {
    answerWith(call, action.answer);
    await Promise.resolve();
  });
}

/** The rows as listed, the default marked; what each offers (only while the list is settled); busy while a call runs. */
function expectRows(t: Translate, context: AddressBookContext, { offered, busy }: { offered: boolean; busy: boolean }): void {
  const list = addressList(t);
  expect(list.getAttribute('aria-busy')).toBe(busy ? 'true' : null);
  const rows = within(list).getAllByRole('listitem');
  expect(rows).toHaveLength(context.addresses.length);
  for (const [index, address] of context.addresses.entries()) {
    const row = within(rows[index] ?? list);
    expect(row.getByText(address.name)).toBeTruthy();
    expect(row.getByText(`${address.region} ${address.detail}`)).toBeTruthy();
    expect(row.queryByText(t('buy:book.default')) !== null, `default tag of ${address.deliveryId}`).toBe(address.isDefault);
    const has = (key: string) => row.queryByRole('button', { name: t(key) }) !== null;
    expect([has('buy:book.choose'), has('buy:book.setDefault'), has('buy:book.delete')], address.deliveryId).toEqual([offered, offered && !address.isDefault, offered]);
    expect(row.getByRole('button', { name: t('buy:book.edit') }).hasAttribute('disabled')).toBe(busy);
  }
}

function expectStep(app: RenderedApp, step: PathStep): void {
  const t = translated(app);
  const context = step.context as AddressBookContext;
  const errors = context.error ? [errorText(t, context.error)] : [];
  const failedAction = () => {
    expectAlert(errorText(t, context.error));
    expectRows(t, context, { offered: false, busy: false });
    expect(screen.getByRole('button', { name: t('common:actions.retry') })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: t('common:actions.cancel') })).toHaveLength(1);
  };
  switch (step.value) {
    case 'loading':
      expectAlerts(errors);
      if (context.addresses.length === 0) expect(screen.getAllByRole('status').map((element) => element.textContent)).toContain(t('common:status.loading'));
      else expectRows(t, context, { offered: false, busy: true });
      return;
    case 'loadFailed':
      expectAlerts(errors);
      expect(screen.getByRole('button', { name: t('common:actions.retry') })).toBeTruthy();
      return;
    case 'empty':
      expectAlerts(errors);
      expect(screen.getByText(t('buy:book.empty'))).toBeTruthy();
      expect(screen.getByRole('button', { name: t('buy:book.add') })).toBeTruthy();
      return;
    case 'loaded':
      expectAlerts(errors);
      expectRows(t, context, { offered: true, busy: false });
      expect(screen.queryByRole('dialog')).toBeNull();
      return;
    case 'confirmingDelete': {
      const target = context.target;
      if (!target) throw new Error('confirming a delete without a target');
      expectRows(t, context, { offered: false, busy: false });
      const text = t(target.isDefault ? 'buy:book.deleteDefaultText' : 'buy:book.deleteText', { name: target.name, region: target.region });
      expect(within(deleteDialog(t)).getByText(text)).toBeTruthy();
      return;
    }
    case 'deleting':
    case 'settingDefault':
      expectAlerts([]);
      expectRows(t, context, { offered: false, busy: true });
      expect(screen.queryByRole('dialog')).toBeNull();
      return;
    case 'deleteFailed':
    case 'setDefaultFailed':
      return failedAction();
    case 'chosen':
      // Back to the settlement with the address chosen.
      expect(app.router.state.location.pathname + app.router.state.location.search).toBe(`${settlementPath}?deliveryId=${context.chosenId ?? ''}`);
      return;
    case 'sessionEnded':
      expect(app.router.state.location.pathname).toBe('/login');
      return;
    default:
      throw new Error(`no expectation for ${JSON.stringify(step.value)}`);
  }
}

await describeRouteUiPaths<BookUiAction>({
  route: '/buy/shipping-address',
  models: [addressBookModel],
  mapStep,
  render: () =>
    renderApp({
      path: `${paths.shippingAddress.href()}?return=${encodeURIComponent(settlementPath)}`,
      stored: { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(testMeInfo()) },
      api: (api) => {
        for (const endpoint of ['deliveryList', 'deliveryDelete', 'deliveryEdit'] as const) api.hold(endpoint);
      },
    }),
  perform,
  expectStep,
  notDrivable: [
    { key: 'addressBook.loading|xstate.error.actor.fetchAddresses|0', reason: `xstate.error.actor.fetchAddresses: ${neverRejects}` },
    { key: 'addressBook.empty|user.refresh|0', reason: `user.refresh: ${noRefresh}` },
    { key: 'addressBook.loaded|user.refresh|0', reason: `user.refresh: ${noRefresh}` },
    { key: 'addressBook.deleting|xstate.error.actor.deleteAddress|0', reason: `xstate.error.actor.deleteAddress: ${neverRejects}` },
    { key: 'addressBook.settingDefault|xstate.error.actor.makeDefault|0', reason: `xstate.error.actor.makeDefault: ${neverRejects}` },
  ],
});
