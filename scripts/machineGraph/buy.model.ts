/**
 * The buy flow's test models (settlement, addressForm, addressBook): each machine's input and every event it may get,
 * answers included, for the generated path tests (tests/machines/*.paths.test.ts), the diagrams (scripts/diagrams.ts)
 * and the atlas. Data only: nothing here runs.
 */
import { isValidInternationalNumber } from '../../api-schema/internationalPhone';
import type { DeliveryAddress, Goods } from '../../machines/buy/buyContract';
import type { CheckoutLoad } from '../../machines/buy/checkout';
import { addressBookMachine } from '../../machines/buy/addressBookMachine';
import { addressFormMachine } from '../../machines/buy/addressFormMachine';
import { settlementMachine } from '../../machines/buy/settlementMachine';
import type { MachineModel, ModelEvent } from './modelPaths';
import type { MachineEntry } from './modelPaths';

export const mug: Goods = { id: 'mug', name: 'Mug', image: '/media/goods/mug.png', price: '12.5', stock: 3 };
export const home: DeliveryAddress = {
  deliveryId: 'd1',
  name: 'Li Lei',
  phone: '138 0013 8000',
  region: 'Guangdong / Shenzhen / Nanshan',
  detail: 'No. 1 Keji Road',
  isDefault: true,
};
export const office: DeliveryAddress = { ...home, deliveryId: 'd2', detail: 'No. 9 Office Park', isDefault: false };
/** The request id the page creates when the member confirms (crypto.randomUUID()). */
export const buyRequestId = '0b6f2a8e-3c1d-4e5f-8a9b-1c2d3e4f5a6b';
/** The request id the address form's page creates when the member saves (crypto.randomUUID()). */
export const addressRequestId = '5d2c9a41-7e6b-4f38-9c0d-2a1b3c4d5e6f';

const ok = <T>(result: T) => ({ code: 0, result });
const refused = (code: number) => ({ code, result: null });
const done = (id: string, output: unknown): ModelEvent => ({ type: `xstate.done.actor.${id}`, output });
const thrown = (id: string): ModelEvent => ({ type: `xstate.error.actor.${id}`, error: { name: 'TypeError' } });

/** A load of the goods, the addresses and the member's balance on the server (30 credit unless said). */
export function checkoutOf(goods: Goods = mug, list: DeliveryAddress[] = [home, office], balance = '30'): CheckoutLoad {
  return { goods: ok(goods), addresses: ok({ list }), balance: ok(balance) };
}

/** The answers a load can give that the settlement tells apart, for one of its three loads. */
const loadAnswers = (id: string, loaded: CheckoutLoad[]): ModelEvent[] => [
  ...loaded.map((load) => done(id, load)),
  done(id, { ...checkoutOf(mug, []), goods: refused(4004) }),
  // The goods and addresses read, the balance not: nothing to weigh the order against.
  done(id, { ...checkoutOf(), balance: refused(-1) }),
  done(id, { ...checkoutOf(mug, [home]), addresses: refused(1002) }),
  thrown(id),
];

/** The page gives the route's goods only: the balance is the server's, read with them. */
export const settlementInput = { goodsId: 'mug' };

export const settlementModel: MachineModel = {
  name: 'settlement',
  machine: settlementMachine,
  input: settlementInput,
  events: [
    { type: 'quantity.inc' },
    { type: 'quantity.dec' },
    { type: 'quantity.set', quantity: 3 },
    { type: 'quantity.set', quantity: 1.5 },
    { type: 'user.chooseAddress', deliveryId: office.deliveryId },
    { type: 'user.chooseAddress', deliveryId: 'd3' },
    { type: 'user.confirm', requestId: buyRequestId },
    { type: 'user.retry' },
    { type: 'user.cancel' },
    { type: 'user.restart' },
    { type: 'user.pickGoods', goodsId: 'mug' },
    ...loadAnswers('loadCheckout', [checkoutOf(), checkoutOf(mug, [])]),
    ...loadAnswers('checkBeforePaying', [checkoutOf(), checkoutOf({ ...mug, price: '13' })]),
    ...loadAnswers('refreshCheckout', [checkoutOf({ ...mug, stock: 1 })]),
    done('settle', ok({ orderId: 'o1', amount: '25', status: 'paid' })),
    ...[1002, 3002, 4004, -1].map((code) => done('settle', refused(code))),
    thrown('settle'),
  ],
};

/** The page opened without goods: the member picks some there. */
export const settlementModelWithoutGoods: MachineModel = {
  name: 'settlement (no goods in the route)',
  machine: settlementMachine,
  input: {},
  events: [{ type: 'user.pickGoods', goodsId: 'mug' }, done('loadCheckout', checkoutOf())],
};

const change = (field: string, value: string): ModelEvent => ({ type: 'field.change', field, value });
const formEvents: ModelEvent[] = [
  { type: 'user.save', requestId: addressRequestId },
  { type: 'user.retry' },
  { type: 'user.edit' },
  { type: 'user.leave' },
  { type: 'user.stay' },
  { type: 'user.discard' },
  thrown('saveAddress'),
];

/**
 * Adding: the fields typed one by one (a wrong mobile number first, and a British one, which passes once the
 * international rules arrive), and every answer deliveryAdd can give.
 */
export const addressFormAddModel: MachineModel = {
  name: 'addressForm (add)',
  machine: addressFormMachine,
  input: { mode: 'add' },
  events: [
    change('name', home.name),
    change('phone', '12345'),
    change('phone', '+44 7400 123456'),
    { type: 'phoneRules.loaded', check: isValidInternationalNumber },
    change('phone', home.phone),
    change('region', home.region),
    change('detail', home.detail),
    { type: 'field.blur', field: 'name' },
    ...formEvents,
    done('saveAddress', ok(home)),
    done('saveAddress', refused(1002)),
    done('saveAddress', { code: 1001, result: null, field: 'phone' }),
    done('saveAddress', refused(3002)),
  ],
};

/** Editing an address that is not the default: emptied and restored, made the default, and deliveryEdit's answers. */
export const addressFormEditModel: MachineModel = {
  name: 'addressForm (edit)',
  machine: addressFormMachine,
  input: { mode: 'edit', address: office },
  events: [
    change('detail', ''),
    change('detail', office.detail),
    { type: 'field.setDefault', isDefault: true },
    { type: 'field.setDefault', isDefault: false },
    ...formEvents,
    done('saveAddress', ok({ ...office, isDefault: true })),
    done('saveAddress', refused(4004)),
    done('saveAddress', refused(1001)),
  ],
};

const bookAnswers = (id: string, answers: unknown[]): ModelEvent[] => [...answers.map((output) => done(id, output)), thrown(id)];

export const addressBookModel: MachineModel = {
  name: 'addressBook',
  machine: addressBookMachine,
  events: [
    { type: 'user.retry' },
    { type: 'user.refresh' },
    { type: 'user.choose', deliveryId: office.deliveryId },
    { type: 'user.setDefault', deliveryId: office.deliveryId },
    { type: 'user.delete', deliveryId: office.deliveryId },
    { type: 'user.confirm' },
    { type: 'user.cancel' },
    ...bookAnswers('fetchAddresses', [ok({ list: [home, office] }), ok({ list: [] }), refused(-1), refused(1002)]),
    ...bookAnswers('deleteAddress', [ok({}), refused(4004), refused(5000), refused(1002)]),
    ...bookAnswers('makeDefault', [ok({ ...office, isDefault: true }), refused(4004), refused(5000), refused(1002)]),
  ],
};

/** The buy flow's machines for the diagrams index, after the member's others (models.ts lists them). */
export const buyMachineEntries: MachineEntry[] = [
  {
    name: 'settlement',
    source: 'machines/buy/settlementMachine.ts',
    summary: 'Buying goods with credit: quantity, address and balance checked, figures read again before paying, one request id for every retry.',
    models: [settlementModel, settlementModelWithoutGoods],
  },
  {
    name: 'addressForm',
    source: 'machines/buy/addressFormMachine.ts',
    summary: 'Adding or editing a shipping address: each field checked as typed by the shared rule, save, the server\'s refusals, leaving with unsaved changes.',
    models: [addressFormAddModel, addressFormEditModel],
  },
  {
    name: 'addressBook',
    source: 'machines/buy/addressBookMachine.ts',
    summary: 'The shipping address book: the list, choosing one for the settlement, making one the default, deleting after a confirmation.',
    models: [addressBookModel],
  },
];
