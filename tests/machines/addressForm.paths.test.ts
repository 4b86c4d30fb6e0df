/**
 * The address form's generated paths (every transition walked, adding and editing), its promises at every step of
 * them, and what a member meets: problems shown once a field is touched or a save was tried, the contract's own
 * field rules, only a valid form sent, the server's refusals, and leaving with unsaved changes.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { addressTextLimits } from '../../api-schema/address';
import { isValidInternationalNumber } from '../../api-schema/internationalPhone';
import { addressFields, isFormValid } from '../../machines/buy/addressFields';
import { addressFormMachine, type AddressFormInput, type AddressFormMachine, type SaveAddressAnswer, type SaveAddressInput } from '../../machines/buy/addressFormMachine';
import * as select from '../../machines/buy/addressFormSelectors';
import { addressFormAddModel, addressFormEditModel, addressRequestId, home, office } from '../../scripts/machineGraph/buy.model';
import { flushPromises } from '../../scripts/machineGraph/pathWalker';
import { describeModelPaths } from './support/describeModelPaths';
import { checkAlongPaths } from './support/checkAlongPaths';

await describeModelPaths('addressForm', [addressFormAddModel, addressFormEditModel]);

describe('addressForm machine: along every generated path', () => {
  checkAlongPaths([addressFormAddModel, addressFormEditModel], ({ snapshot: walked, event, path }) => {
    const snapshot = walked as SnapshotFrom<AddressFormMachine>;
    const value = String(snapshot.value);
    expect(snapshot.hasTag('busy'), path).toBe(value === 'saving');
    // A save's request id from the moment it starts until the member is back at the form.
    if (value === 'saving' || value === 'failed') expect(snapshot.context.requestId, path).toBe(addressRequestId);
    if (value === 'editing') expect(snapshot.context.requestId, path).toBeNull();
    // Only a form whose every field passes is ever sent.
    if (value === 'saving') expect(isFormValid(snapshot.context.form, snapshot.context.internationalPhone), path).toBe(true);
    // A +country number other than China's fails until its rules are loaded, and the page is asked to load them.
    if (snapshot.context.form.phone.startsWith('+44')) {
      expect(select.selectNeedsPhoneRules(snapshot), path).toBe(snapshot.context.internationalPhone === null);
      if (snapshot.context.touched.phone) expect(select.selectFieldProblem(snapshot, 'phone'), path).toBe(snapshot.context.internationalPhone ? null : 'phone');
    } else {
      expect(select.selectNeedsPhoneRules(snapshot), path).toBe(false);
    }
    // An untouched field never shows its own problem.
    for (const field of addressFields) {
      const problem = select.selectFieldProblem(snapshot, field);
      if (!snapshot.context.touched[field] && problem !== null) expect(problem, path).toBe('refused');
    }
    if (event.type === 'user.leave' && value === 'left') expect(select.selectIsDirty(snapshot), path).toBe(false);
    if (value === 'confirmingLeave') expect(select.selectIsDirty(snapshot), path).toBe(true);
    if (value === 'saved') expect(snapshot.output, path).toEqual(snapshot.context.saved);
  });
});

function start(input: AddressFormInput = { mode: 'add' }) {
  const sent: SaveAddressInput[] = [];
  const answers: ((answer: SaveAddressAnswer) => void)[] = [];
  const machine = addressFormMachine.provide({
    actors: {
      saveAddress: fromPromise<SaveAddressAnswer, SaveAddressInput>(({ input: body }) => {
        sent.push(body);
        return new Promise((resolve) => answers.push(resolve));
      }),
    },
  });
  const actor = createActor(machine, { input }).start();
  const snapshot = () => actor.getSnapshot();
  const type = (field: (typeof addressFields)[number], value: string) => actor.send({ type: 'field.change', field, value });
  const answer = async (output: SaveAddressAnswer) => {
    answers.pop()?.(output);
    await flushPromises();
  };
  const fill = () => {
    type('name', home.name);
    type('phone', home.phone);
    type('region', home.region);
    type('detail', home.detail);
  };
  let saves = 0;
  // Each save from the form gets an id of its own, as the page's crypto.randomUUID() gives.
  const save = () => actor.send({ type: 'user.save', requestId: `save-${(saves += 1)}` });
  return { actor, sent, snapshot, type, answer, fill, save };
}

describe('addressForm: adding', () => {
  it('shows a field\'s problem once it is touched, as typed, by the contract\'s rule', () => {
    const form = start();
    expect(addressFields.map((field) => select.selectFieldProblem(form.snapshot(), field))).toEqual([null, null, null, null]);
    form.actor.send({ type: 'field.blur', field: 'name' });
    expect(select.selectFieldProblem(form.snapshot(), 'name')).toBe('required');
    form.type('phone', '12345');
    expect(select.selectFieldProblem(form.snapshot(), 'phone')).toBe('phone');
    // A British number: not checked (so not passing) until the page loaded the international rules.
    form.type('phone', '+44 7400 123456');
    expect(select.selectFieldProblem(form.snapshot(), 'phone')).toBe('phone');
    expect(select.selectNeedsPhoneRules(form.snapshot())).toBe(true);
    form.actor.send({ type: 'phoneRules.loaded', check: isValidInternationalNumber });
    expect(select.selectFieldProblem(form.snapshot(), 'phone')).toBeNull();
    expect(select.selectNeedsPhoneRules(form.snapshot())).toBe(false);
    form.type('phone', '+44 7400 12');
    expect(select.selectFieldProblem(form.snapshot(), 'phone')).toBe('phone');
    form.type('detail', 'x'.repeat(addressTextLimits.detail + 1));
    expect(select.selectFieldProblem(form.snapshot(), 'detail')).toBe('tooLong');
    form.type('detail', '<b>No. 1</b>');
    expect(select.selectFieldProblem(form.snapshot(), 'detail')).toBe('markup');
    expect(select.selectFieldProblem(form.snapshot(), 'region')).toBeNull();
  });

  it('a save attempt with problems sends nothing and shows every one, the unchosen region included', () => {
    const form = start();
    form.type('name', home.name);
    form.save();
    expect(select.selectAddressFormView(form.snapshot())).toBe('editing');
    expect(form.sent).toEqual([]);
    expect(addressFields.map((field) => select.selectFieldProblem(form.snapshot(), field))).toEqual([null, 'required', 'required', 'required']);
    expect(select.selectIsComplete(form.snapshot())).toBe(false);
  });

  it('sends a valid form as an add and ends with the saved address', async () => {
    const form = start();
    form.fill();
    form.actor.send({ type: 'field.setDefault', isDefault: true });
    expect(select.selectIsComplete(form.snapshot())).toBe(true);
    form.save();
    expect(select.selectIsBusy(form.snapshot())).toBe(true);
    expect(form.sent).toEqual([
      { deliveryId: null, fields: { name: home.name, phone: home.phone, region: home.region, detail: home.detail, isDefault: true }, requestId: 'save-1' },
    ]);
    await form.answer({ code: 0, result: home });
    expect(form.actor.getSnapshot().status).toBe('done');
    expect(form.actor.getSnapshot().output).toEqual(home);
    expect(select.selectSaved(form.snapshot())).toEqual(home);
  });

  it('marks the field a 1001 names until the member changes it; a 1001 naming none is the form\'s error', async () => {
    const form = start();
    form.fill();
    form.save();
    await form.answer({ code: 1001, result: null, field: 'phone' });
    expect(select.selectAddressFormView(form.snapshot())).toBe('editing');
    expect(select.selectFieldProblem(form.snapshot(), 'phone')).toBe('refused');
    expect(select.selectFormError(form.snapshot())).toEqual({ name: 'ApiError', code: 1001 });
    form.type('phone', '139 0000 0000');
    expect(select.selectFieldProblem(form.snapshot(), 'phone')).toBeNull();
    form.save();
    await form.answer({ code: 1001, result: null });
    expect(addressFields.map((field) => select.selectFieldProblem(form.snapshot(), field))).toEqual([null, null, null, null]);
    expect(select.selectFormError(form.snapshot())).toEqual({ name: 'ApiError', code: 1001 });
  });

  it('on 3002 (20 addresses already) fails with the code; a retry sends the same form under the same id, or back to the form', async () => {
    const form = start();
    form.fill();
    form.save();
    await form.answer({ code: 3002, result: null });
    expect(select.selectAddressFormView(form.snapshot())).toBe('failed');
    expect(select.selectFormError(form.snapshot())).toEqual({ name: 'ApiError', code: 3002 });
    expect(select.selectCanRetry(form.snapshot())).toBe(true);
    form.actor.send({ type: 'user.retry' });
    expect(form.sent).toHaveLength(2);
    expect(form.sent[1]).toEqual(form.sent[0]);
    expect(form.sent[1]?.requestId).toBe('save-1');
    await form.answer({ code: -1, result: null });
    form.actor.send({ type: 'user.edit' });
    expect(select.selectAddressFormView(form.snapshot())).toBe('editing');
    expect(select.selectForm(form.snapshot()).name).toBe(home.name);
    // Back at the form, the next save is a new request.
    form.save();
    expect(form.sent[2]?.requestId).toBe('save-2');
  });

  it('leaves at once when nothing was typed, and asks first when something was', () => {
    const clean = start();
    clean.actor.send({ type: 'user.leave' });
    expect(select.selectAddressFormView(clean.snapshot())).toBe('left');
    const typed = start();
    typed.type('name', 'L');
    typed.actor.send({ type: 'user.leave' });
    expect(select.selectAddressFormView(typed.snapshot())).toBe('confirmingLeave');
    typed.actor.send({ type: 'user.stay' });
    expect(select.selectForm(typed.snapshot()).name).toBe('L');
    typed.actor.send({ type: 'user.leave' });
    typed.actor.send({ type: 'user.discard' });
    expect(select.selectAddressFormView(typed.snapshot())).toBe('left');
    expect(typed.actor.getSnapshot().output).toBeNull();
  });
});

describe('addressForm: editing', () => {
  it('starts from the address, is clean until a value differs, and sends an edit with its deliveryId', async () => {
    const form = start({ mode: 'edit', address: office });
    expect(select.selectMode(form.snapshot())).toBe('edit');
    expect(select.selectForm(form.snapshot())).toMatchObject({ detail: office.detail, isDefault: false });
    form.type('detail', 'No. 10 Office Park');
    expect(select.selectIsDirty(form.snapshot())).toBe(true);
    form.type('detail', office.detail);
    expect(select.selectIsDirty(form.snapshot())).toBe(false);
    form.type('detail', 'No. 10 Office Park');
    form.save();
    const { deliveryId, ...fields } = office;
    expect(form.sent[0]).toEqual({ deliveryId, fields: { ...fields, detail: 'No. 10 Office Park' }, requestId: 'save-1' });
    await form.answer({ code: 4004, result: null });
    expect(select.selectFormError(form.snapshot())).toEqual({ name: 'ApiError', code: 4004 });
  });

  it('keeps the default the default: its switch cannot be turned off', () => {
    const form = start({ mode: 'edit', address: home });
    expect(select.selectDefaultLocked(form.snapshot())).toBe(true);
    form.actor.send({ type: 'field.setDefault', isDefault: false });
    expect(select.selectForm(form.snapshot()).isDefault).toBe(true);
    const other = start({ mode: 'edit', address: office });
    expect(select.selectDefaultLocked(other.snapshot())).toBe(false);
    other.actor.send({ type: 'field.setDefault', isDefault: true });
    expect(select.selectForm(other.snapshot()).isDefault).toBe(true);
    expect(select.selectIsDirty(other.snapshot())).toBe(true);
  });
});
