/**
 * The address form machine's generated paths through the rendered /buy/shipping-address/add and /edit/:deliveryId
 * pages (tests/ui/support/routeUiPaths.ts): the fields typed, the region picked, the default switch, each field's
 * problem as the member reads it, saving with deliveryAdd or deliveryEdit answered with the path's answer (the body
 * checked), the server's refusals, and leaving with unsaved changes through the back arrow.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addressTextLimits, checkAddressField } from '../../api-schema/address';
import { addressFields, formOf, isFormChanged, needsInternationalRules, problemsOf, blankAddressForm, type SaveAddressAnswer } from '../../machines/buy/addressFields';
import type { AddressFormContext, AddressFormInput } from '../../machines/buy/addressFormMachine';
import type { AddressField } from '../../machines/buy/buyContract';
import { addressFormAddModel, addressFormEditModel, addressRequestId, home, office } from '../../scripts/machineGraph/buy.model';
import type { MachineModel, PathStep } from '../../scripts/machineGraph/modelPaths';
import { paths } from '../../src/app/paths';
import { regionText } from '../../src/components/regionOptions';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testMeInfo } from '../support/fakeApi';
import { renderApp, type RenderedApp } from './support/renderApp';
import { answerWith, describeRouteUiPaths } from './support/routeUiPaths';
import { expectAlerts, translated } from './support/screenQueries';
import type { StepMapper } from './support/uiPathPlan';

type Translate = ReturnType<typeof translated>;
type TextField = Exclude<AddressField, 'region'>;
type FormUiAction =
  | { kind: 'type'; field: TextField; value: string }
  | { kind: 'pickRegion'; places: readonly string[] }
  | { kind: 'blur'; field: TextField }
  | { kind: 'toggleDefault' }
  | { kind: 'click'; button: string; inDialog: boolean }
  | { kind: 'answer'; answer: SaveAddressAnswer };

/**
 * The picker offers China's divisions by their names in china-area-data, so the models' region text stands for the
 * division these places name: the machine only checks the text (both pass the same rule, checked below).
 */
const regionPicks = new Map<string, readonly string[]>([[home.region, ['广东省', '深圳市', '南山区']]]);
/** The region as the page holds it: picked when it differs from the address being edited, else as loaded. */
function regionShown(context: AddressFormContext): string {
  const { region } = context.form;
  const places = region === context.original?.region ? undefined : regionPicks.get(region);
  return places ? regionText(places) : region;
}

const isDirty = (context: AddressFormContext) => isFormChanged(context.form, context.original ? formOf(context.original) : blankAddressForm);
const neverRejects = 'the API client never rejects: every failure is an answer with a code';
const rulesLoadBySelf = 'the page loads the +country rules by itself once such a number is typed, so the moment before they arrive is no step to check (the test below types one)';
const leavesClean = 'with nothing changed the back arrow leaves without asking the machine (the page blocks only a form with changes)';

const mapStep: StepMapper<FormUiAction> = (step, { previous, initial }) => {
  const event = step.event as { type: string } & Record<string, unknown>;
  const before = (previous ?? initial).context as AddressFormContext;
  const action = (value: FormUiAction) => ({ kind: 'action' as const, action: value });
  const click = (button: string, inDialog = false) => action({ kind: 'click', button, inDialog });
  switch (event.type) {
    case 'field.change': {
      const field = event.field as AddressField;
      const value = String(event.value);
      if (field === 'phone' && needsInternationalRules(value)) return { kind: 'unmapped', reason: rulesLoadBySelf };
      if (field !== 'region') return action({ kind: 'type', field, value });
      const places = regionPicks.get(value);
      return places ? action({ kind: 'pickRegion', places }) : { kind: 'unmapped', reason: `the region picker offers no division named ${JSON.stringify(value)}` };
    }
    case 'field.blur':
      return event.field === 'region' ? { kind: 'unmapped', reason: 'the region is a picker: it is touched by closing it' } : action({ kind: 'blur', field: event.field as TextField });
    case 'field.setDefault':
      return event.isDefault === before.form.isDefault ? { kind: 'unmapped', reason: 'the switch only flips: setting what it shows is no tap' } : action({ kind: 'toggleDefault' });
    case 'phoneRules.loaded':
      return { kind: 'unmapped', reason: rulesLoadBySelf };
    case 'user.save':
      return click('buy:address.save');
    case 'user.retry':
      return click('common:actions.retry');
    case 'user.edit':
      return click('buy:address.edit');
    case 'user.leave':
      // useBlocker holds the navigation (and asks the machine) only for a form with changes.
      return isDirty(before)
        ? click('common:nav.back')
        : { kind: 'unmapped', reason: leavesClean };
    case 'user.stay':
      return click('buy:address.stay', true);
    case 'user.discard':
      return click('buy:address.discard', true);
    case 'xstate.done.actor.saveAddress': {
      const answer = event.output as SaveAddressAnswer;
      return answer.field
        ? { kind: 'unmapped', reason: "the API client puts its own text in place of the server's message, so saveAddress cannot tell which field a 1001 names (it answers field: null)" }
        : action({ kind: 'answer', answer });
    }
    default:
      return event.type.startsWith('xstate.error.actor.') ? { kind: 'unmapped', reason: neverRejects } : { kind: 'unmapped', reason: `no UI for ${event.type}` };
  }
};

const inputOf = (model: MachineModel) => model.input as AddressFormInput;
const textField = (t: Translate, field: TextField) => screen.getByLabelText<HTMLInputElement>(t(`buy:address.fields.${field}`));
const regionButton = (t: Translate) => screen.getByRole('button', { name: new RegExp(`^${t('buy:address.fields.region')} `) });
const defaultSwitch = (t: Translate) => screen.getByRole('switch', { name: t('buy:address.fields.isDefault') });
/** The texts an element is described by (its problem, its hint), in order. */
const descriptionOf = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean).map((id) => document.getElementById(id)?.textContent);

async function perform(app: RenderedApp, action: FormUiAction, before: PathStep, model: MachineModel): Promise<void> {
  const t = translated(app);
  switch (action.kind) {
    case 'type': {
      const field = textField(t, action.field);
      await app.user.clear(field);
      if (action.value !== '') await app.user.type(field, action.value);
      return;
    }
    case 'pickRegion': {
      await app.user.click(regionButton(t));
      // The sheet takes taps once it has slid in (pointer-events: none until then), as a member waits for it.
      for (const place of action.places) await waitFor(() => app.user.click(screen.getByText(place)));
      // antd-mobile's Cascader draws its OK as a plain link.
      return app.user.click(screen.getByText(t('common:actions.confirm'), { selector: 'a' }));
    }
    case 'blur':
      // Tapped into, then out of, without typing.
      await app.user.click(textField(t, action.field));
      return app.user.click(document.body);
    case 'toggleDefault':
      return app.user.click(defaultSwitch(t));
    case 'click': {
      const scope = action.inDialog ? within(screen.getByRole('dialog', { name: t('buy:address.leaveTitle') })) : screen;
      return app.user.click(scope.getByRole('button', { name: t(action.button) }));
    }
    case 'answer': {
      const context = before.context as AddressFormContext;
      const input = inputOf(model);
      const fields = { ...context.form, region: regionShown(context) };
      const call = await app.api.next(input.mode === 'add' ? 'deliveryAdd' : 'deliveryEdit');
      // An add carries the save's request id (the same on a retry); an edit is the same however often it is sent.
      expect(call.body).toEqual(input.mode === 'add' ? { ...fields, requestId: context.requestId } : { ...fields, deliveryId: input.address.deliveryId });
      await act(async () => {
        answerWith(call, action.answer);
        await Promise.resolve();
      });
      return;
    }
  }
}

/** Each field's value, its problem (own once touched, or the server's refusal) and whether it takes changes. */
function expectFields(t: Translate, context: AddressFormContext, editable: boolean): string[] {
  const { form, touched, refusedField, internationalPhone } = context;
  const shown: string[] = [];
  const problemOf = (field: AddressField) => {
    const problem = (touched[field] ? problemsOf(form, internationalPhone)[field] : null) ?? (refusedField === field ? 'refused' : null);
    if (!problem) return [];
    const text = t(`buy:address.problems.${problem}`, { field: t(`buy:address.fields.${field}`), max: field === 'phone' ? 0 : addressTextLimits[field] });
    shown.push(text);
    return [text];
  };
  for (const field of addressFields) {
    if (field === 'region') {
      const button = regionButton(t);
      expect(button.textContent).toBe(regionShown(context) || t('buy:address.regionPlaceholder'));
      expect(descriptionOf(button), field).toEqual(problemOf(field));
      expect(button.hasAttribute('disabled')).toBe(!editable);
      continue;
    }
    const input = textField(t, field);
    expect(input.value, field).toBe(form[field]);
    expect(descriptionOf(input), field).toEqual([...problemOf(field), ...(field === 'phone' ? [t('buy:address.phoneHint')] : [])]);
    expect(input.disabled, field).toBe(!editable);
  }
  const locked = form.isDefault && context.original?.isDefault === true;
  expect(defaultSwitch(t).getAttribute('aria-checked')).toBe(String(form.isDefault));
  expect(defaultSwitch(t).getAttribute('aria-disabled')).toBe(String(!editable || locked));
  return shown;
}

function expectStep(app: RenderedApp, step: PathStep): void {
  const t = translated(app);
  const context = step.context as AddressFormContext;
  const failed = step.value === 'failed';
  const form = (editable: boolean) => {
    const problems = expectFields(t, context, editable);
    const error = context.error ? t(context.error.code === 3002 ? 'buy:address.tooMany' : `common:Common.${String(context.error.code)}`) : null;
    // The error card announces the error with what it offers (a retry, or back to the form, after a failed save).
    const card = error === null ? [] : [error + (failed ? t('common:actions.retry') + t('buy:address.edit') : ''), error];
    expectAlerts([...problems, ...card]);
    expect(screen.getByRole('button', { name: t('buy:address.save') }).hasAttribute('disabled')).toBe(step.value === 'saving');
  };
  switch (step.value) {
    case 'editing':
    case 'saving':
    case 'failed':
      form(step.value === 'editing');
      expect(screen.queryByRole('dialog')).toBeNull();
      return;
    case 'confirmingLeave': {
      const dialog = within(screen.getByRole('dialog', { name: t('buy:address.leaveTitle') }));
      expect(dialog.getByText(t('buy:address.leaveText'))).toBeTruthy();
      expect(dialog.getByRole('button', { name: t('buy:address.stay') })).toBeTruthy();
      expect(dialog.getByRole('button', { name: t('buy:address.discard') })).toBeTruthy();
      return;
    }
    case 'saved':
    case 'left':
      // Without ?return= the form goes back to the book (after a save, with the address in it; it is read again).
      expect(app.router.state.location.pathname).toBe(paths.shippingAddress.href());
      return;
    case 'sessionEnded':
      expect(app.router.state.location.pathname).toBe('/login');
      return;
    default:
      throw new Error(`no expectation for ${JSON.stringify(step.value)}`);
  }
}

beforeAll(() => {
  // The page's id for each save is the model's (crypto.randomUUID()), so the body can be checked against the path.
  vi.spyOn(crypto, 'randomUUID').mockReturnValue(addressRequestId as ReturnType<typeof crypto.randomUUID>);
  // jsdom has no pointer capture, which antd-mobile's Popup (the region picker's sheet, through use-gesture) asks
  // for on every press.
  Element.prototype.setPointerCapture ??= () => undefined;
  Element.prototype.releasePointerCapture ??= () => undefined;
});
afterAll(() => {
  vi.restoreAllMocks();
});

describe("address form: the browser's back button", () => {
  it('asks before unsaved changes are lost: keep editing stays, discard goes back', async () => {
    const app = await renderApp({
      path: paths.shippingAddress.href(),
      stored: { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(testMeInfo()) },
      api: (api) => api.answer('deliveryList', { code: 0, result: { list: [] } }),
    });
    const t = translated(app);
    await act(() => app.router.navigate(paths.shippingAddressAdd.href()));
    await app.user.type(await screen.findByLabelText(t('buy:address.fields.name')), 'Li Lei');
    await act(() => app.router.navigate(-1));
    const asked = await screen.findByRole('dialog', { name: t('buy:address.leaveTitle') });
    await app.user.click(within(asked).getByRole('button', { name: t('buy:address.stay') }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: t('buy:address.leaveTitle') })).toBeNull());
    expect(app.router.state.location.pathname).toBe(paths.shippingAddressAdd.href());
    expect(screen.getByLabelText<HTMLInputElement>(t('buy:address.fields.name')).value).toBe('Li Lei');

    await act(() => app.router.navigate(-1));
    const again = await screen.findByRole('dialog', { name: t('buy:address.leaveTitle') });
    await app.user.click(within(again).getByRole('button', { name: t('buy:address.discard') }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe(paths.shippingAddress.href()));
  });
});

describe('address form: a +country number', () => {
  it('is checked by the international rules the page loads once such a number is typed', async () => {
    const app = await renderApp({
      path: paths.shippingAddressAdd.href(),
      stored: { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(testMeInfo()) },
      api: (api) => api.answer('deliveryList', { code: 0, result: { list: [] } }),
    });
    const t = translated(app);
    const phone = await screen.findByLabelText<HTMLInputElement>(t('buy:address.fields.phone'));
    const phoneProblem = t('buy:address.problems.phone', { field: t('buy:address.fields.phone'), max: 0 });
    // Valid for the United Kingdom: the problem goes once the rules arrived (until then it is not checked, so not passing).
    await app.user.type(phone, '+44 7400 123456');
    await waitFor(() => expect(descriptionOf(phone)).not.toContain(phoneProblem));
    // Too short for the United Kingdom, though of the contract's shape: only the rules can say so.
    await app.user.clear(phone);
    await app.user.type(phone, '+44 7400 1234');
    await waitFor(() => expect(descriptionOf(phone)).toContain(phoneProblem));
  });
});

describe('address form: the picked region stands for the models\' region text', () => {
  it('passes the region rule exactly as the model\'s text does', () => {
    for (const [text, places] of regionPicks) expect(checkAddressField('region', regionText(places))).toBe(checkAddressField('region', text));
  });
});

await describeRouteUiPaths<FormUiAction>({
  route: '/buy/shipping-address/add and /edit/:deliveryId',
  models: [addressFormAddModel, addressFormEditModel],
  mapStep,
  render: (model) => {
    const input = inputOf(model);
    return renderApp({
      path: input.mode === 'add' ? paths.shippingAddressAdd.href() : paths.shippingAddressEdit.href(input.address.deliveryId),
      stored: { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(testMeInfo()) },
      api: (api) => {
        // The edit page finds its address in the list; the book reads it after a save or leave.
        api.answer('deliveryList', { code: 0, result: { list: [home, office] } });
        api.hold('deliveryAdd');
        api.hold('deliveryEdit');
      },
    });
  },
  perform,
  expectStep,
  notDrivable: [
    { key: 'addressForm|phoneRules.loaded|0', reason: `phoneRules.loaded: ${rulesLoadBySelf}` },
    { key: 'addressForm.editing|user.leave|1', reason: `user.leave: ${leavesClean}` },
    { key: 'addressForm.saving|xstate.error.actor.saveAddress|0', reason: `xstate.error.actor.saveAddress: ${neverRejects}` },
    { key: 'addressForm.failed|user.leave|1', reason: `user.leave: ${leavesClean}` },
  ],
});
