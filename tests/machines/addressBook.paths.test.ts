/**
 * The address book's generated paths (every transition walked), its promises at every step of them, and what a
 * member does there: choose an address for the settlement, make another the default (an edit with isDefault true),
 * delete one after confirming, each action's failure with a retry, and the list read again after each change.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { SaveAddressAnswer, SaveAddressInput } from '../../machines/buy/addressFields';
import { addressBookMachine, type AddressBookMachine, type AddressListAnswer, type DeleteAddressAnswer } from '../../machines/buy/addressBookMachine';
import * as select from '../../machines/buy/addressBookSelectors';
import { addressBookModel, home, office } from '../../scripts/machineGraph/buy.model';
import { flushPromises } from '../../scripts/machineGraph/pathWalker';
import { describeModelPaths } from './support/describeModelPaths';
import { checkAlongPaths } from './support/checkAlongPaths';

await describeModelPaths('addressBook', [addressBookModel]);

const busyStates = ['loading', 'deleting', 'settingDefault'];

describe('addressBook machine: along every generated path', () => {
  checkAlongPaths([addressBookModel], ({ snapshot: walked, path }) => {
    const snapshot = walked as SnapshotFrom<AddressBookMachine>;
    const value = String(snapshot.value);
    expect(snapshot.hasTag('busy'), path).toBe(busyStates.includes(value));
    // An action is always about a listed address, and only while it runs, is confirmed or failed.
    if (['confirmingDelete', 'deleting', 'deleteFailed', 'settingDefault', 'setDefaultFailed'].includes(value)) {
      expect(snapshot.context.addresses, path).toContainEqual(snapshot.context.target);
    }
    if (['loaded', 'empty'].includes(value)) expect(snapshot.context.target, path).toBeNull();
    // The default itself is never offered as "make default".
    for (const address of snapshot.context.addresses) {
      if (address.isDefault) expect(select.selectCanSetDefault(snapshot, address.deliveryId), path).toBe(false);
    }
    if (value === 'chosen') expect(snapshot.output, path).toEqual({ deliveryId: office.deliveryId });
  });
});

function start() {
  const calls = { fetch: 0, saved: [] as SaveAddressInput[], deleted: [] as { deliveryId: string }[] };
  const pending: { fetch: ((answer: AddressListAnswer) => void)[]; save: ((answer: SaveAddressAnswer) => void)[]; remove: ((answer: DeleteAddressAnswer) => void)[] } = {
    fetch: [],
    save: [],
    remove: [],
  };
  const machine = addressBookMachine.provide({
    actors: {
      fetchAddresses: fromPromise<AddressListAnswer>(() => {
        calls.fetch += 1;
        return new Promise((resolve) => pending.fetch.push(resolve));
      }),
      saveAddress: fromPromise<SaveAddressAnswer, SaveAddressInput>(({ input }) => {
        calls.saved.push(input);
        return new Promise((resolve) => pending.save.push(resolve));
      }),
      deleteAddress: fromPromise<DeleteAddressAnswer, { deliveryId: string }>(({ input }) => {
        calls.deleted.push(input);
        return new Promise((resolve) => pending.remove.push(resolve));
      }),
    },
  });
  const actor = createActor(machine).start();
  const settle = async <T>(queue: ((answer: T) => void)[], answer: T) => {
    queue.pop()?.(answer);
    await flushPromises();
  };
  return {
    actor,
    calls,
    snapshot: () => actor.getSnapshot(),
    list: (list: (typeof home)[]) => settle(pending.fetch, { code: 0, result: { list } }),
    listFails: (code: number) => settle(pending.fetch, { code, result: null }),
    saveAnswers: (answer: SaveAddressAnswer) => settle(pending.save, answer),
    deleteAnswers: (code: number) => settle(pending.remove, { code, result: code === 0 ? {} : null }),
  };
}

describe('addressBook', () => {
  it('lists the addresses as the server answers them, the default first, and says what each allows', async () => {
    const book = start();
    expect(select.selectIsBusy(book.snapshot())).toBe(true);
    await book.list([home, office]);
    expect(select.selectAddressBookView(book.snapshot())).toBe('loaded');
    expect(select.selectAddresses(book.snapshot())).toEqual([home, office]);
    expect(select.selectDefaultAddress(book.snapshot())).toEqual(home);
    expect(select.selectCanSetDefault(book.snapshot(), home.deliveryId)).toBe(false);
    expect(select.selectCanSetDefault(book.snapshot(), office.deliveryId)).toBe(true);
    expect(select.selectCanDelete(book.snapshot(), 'd404')).toBe(false);
    expect(select.selectCanChoose(book.snapshot(), 'd404')).toBe(false);
  });

  it('is empty with no address, and retries a list that failed', async () => {
    const book = start();
    await book.listFails(-1);
    expect(select.selectAddressBookView(book.snapshot())).toBe('loadFailed');
    expect(select.selectBookError(book.snapshot())).toEqual({ name: 'ApiError', code: -1 });
    expect(select.selectCanRetry(book.snapshot())).toBe(true);
    book.actor.send({ type: 'user.retry' });
    expect(select.selectBookError(book.snapshot())).toBeNull();
    await book.list([]);
    expect(select.selectAddressBookView(book.snapshot())).toBe('empty');
  });

  it('ends with the chosen address for the settlement', async () => {
    const book = start();
    await book.list([home, office]);
    book.actor.send({ type: 'user.choose', deliveryId: office.deliveryId });
    expect(book.actor.getSnapshot().status).toBe('done');
    expect(book.actor.getSnapshot().output).toEqual({ deliveryId: office.deliveryId });
    expect(select.selectChosenId(book.snapshot())).toBe(office.deliveryId);
  });

  it('makes another address the default with an edit of it as it is, then reads the list again', async () => {
    const book = start();
    await book.list([home, office]);
    book.actor.send({ type: 'user.setDefault', deliveryId: office.deliveryId });
    expect(select.selectTarget(book.snapshot())).toEqual(office);
    const { deliveryId, ...fields } = office;
    expect(book.calls.saved).toEqual([{ deliveryId, fields: { ...fields, isDefault: true }, requestId: null }]);
    await book.saveAnswers({ code: 5000, result: null });
    expect(select.selectAddressBookView(book.snapshot())).toBe('setDefaultFailed');
    book.actor.send({ type: 'user.retry' });
    expect(book.calls.saved).toHaveLength(2);
    await book.saveAnswers({ code: 0, result: { ...office, isDefault: true } });
    expect(select.selectAddressBookView(book.snapshot())).toBe('loading');
    await book.list([{ ...office, isDefault: true }, { ...home, isDefault: false }]);
    expect(book.calls.fetch).toBe(2);
    expect(select.selectDefaultAddress(book.snapshot())?.deliveryId).toBe(office.deliveryId);
    expect(select.selectTarget(book.snapshot())).toBeNull();
  });

  it('reads the list again when the address to make default is gone, and says so', async () => {
    const book = start();
    await book.list([home, office]);
    book.actor.send({ type: 'user.setDefault', deliveryId: office.deliveryId });
    await book.saveAnswers({ code: 4004, result: null });
    await book.list([home]);
    expect(select.selectAddressBookView(book.snapshot())).toBe('loaded');
    expect(select.selectBookError(book.snapshot())).toEqual({ name: 'ApiError', code: 4004 });
  });

  it('deletes only after a confirmation; a failure offers a retry; the list is read again', async () => {
    const book = start();
    await book.list([home, office]);
    book.actor.send({ type: 'user.delete', deliveryId: home.deliveryId });
    expect(select.selectAddressBookView(book.snapshot())).toBe('confirmingDelete');
    expect(select.selectTarget(book.snapshot())).toEqual(home);
    book.actor.send({ type: 'user.cancel' });
    expect(select.selectAddressBookView(book.snapshot())).toBe('loaded');
    expect(book.calls.deleted).toEqual([]);
    book.actor.send({ type: 'user.delete', deliveryId: home.deliveryId });
    book.actor.send({ type: 'user.confirm' });
    await book.deleteAnswers(5000);
    expect(select.selectAddressBookView(book.snapshot())).toBe('deleteFailed');
    expect(select.selectBookError(book.snapshot())).toEqual({ name: 'ApiError', code: 5000 });
    book.actor.send({ type: 'user.retry' });
    await book.deleteAnswers(0);
    expect(book.calls.deleted).toEqual([{ deliveryId: home.deliveryId }, { deliveryId: home.deliveryId }]);
    // Deleting the default: the server makes the most recently added remaining one the default.
    await book.list([{ ...office, isDefault: true }]);
    expect(select.selectDefaultAddress(book.snapshot())?.deliveryId).toBe(office.deliveryId);
  });

  it('takes an address already deleted elsewhere (4004) as deleted', async () => {
    const book = start();
    await book.list([home, office]);
    book.actor.send({ type: 'user.delete', deliveryId: office.deliveryId });
    book.actor.send({ type: 'user.confirm' });
    await book.deleteAnswers(4004);
    expect(select.selectAddressBookView(book.snapshot())).toBe('loading');
    expect(select.selectBookError(book.snapshot())).toBeNull();
  });

  it('ends on 1002', async () => {
    const book = start();
    await book.listFails(1002);
    expect(select.selectAddressBookView(book.snapshot())).toBe('sessionEnded');
    expect(book.actor.getSnapshot().output).toEqual({ deliveryId: null });
  });
});
