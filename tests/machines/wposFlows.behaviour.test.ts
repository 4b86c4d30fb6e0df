/**
 * The WPOS flows' own rules, beyond the skeleton's (tests/machines/moneyFlow.behaviour.test.ts): a transfer's
 * recipient is checked as typed (form, EIP-55 checksum in mixed case only, not the member, in the team list) and goes
 * out checksummed; an exchange previews what arrives with the server's rounding, refuses one that receives nothing,
 * and checks the balance of the asset paid.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { exchangeReceived } from '../../api-schema/amount';
import { exchangeMachine, type ExchangeAnswer, type SubmitExchangeInput } from '../../machines/exchange/exchangeMachine';
import { selectAmountError as selectExchangeError, selectPayBalance, selectReceived, selectReceivedAsset } from '../../machines/exchange/exchangeSelectors';
import { selectCanSubmit } from '../../machines/shared/moneyFlowSelectors';
import { transferMachine, type SubmitTransferInput, type TransferAnswer } from '../../machines/wpos/transferMachine';
import {
  selectAmountError,
  selectRecipientError,
  selectRecipientMatches,
  selectRemaining,
} from '../../machines/wpos/transferSelectors';
import { exchangeInput, exchangeRequestId } from '../../scripts/machineGraph/exchange.model';
import { flushPromises } from '../../scripts/machineGraph/pathWalker';
import { stranger, teamMembers, transferInput, transferRequestId, wrongChecksum } from '../../scripts/machineGraph/transfer.model';
import { accountA } from '../../scripts/machineGraph/wallet.model';

function startTransfer() {
  const sent: SubmitTransferInput[] = [];
  const machine = transferMachine.provide({
    actors: {
      submit: fromPromise<TransferAnswer, SubmitTransferInput>(async ({ input }) => {
        sent.push(input);
        return { code: 0, result: { id: '1', amount: input.body.amount, status: 'done' } };
      }),
    },
  });
  return { actor: createActor(machine, { input: transferInput }).start(), sent };
}

function startExchange() {
  const sent: SubmitExchangeInput[] = [];
  const machine = exchangeMachine.provide({
    actors: {
      submit: fromPromise<ExchangeAnswer, SubmitExchangeInput>(async ({ input }) => {
        sent.push(input);
        return { code: 0, result: { id: '2', paid: input.body.amount, received: '1', rate: exchangeInput.rate } };
      }),
    },
  });
  return { actor: createActor(machine, { input: exchangeInput }).start(), sent };
}

describe('transfer: the recipient as typed', () => {
  it.each([
    ['0x12', 'format'],
    [`${teamMembers[0]}0`, 'format'],
    [wrongChecksum, 'checksum'],
    [accountA, 'self'],
    [accountA.toLowerCase(), 'self'],
    [stranger, 'notInTeam'],
    [teamMembers[0], null],
    [teamMembers[0].toLowerCase(), null],
    [`0x${teamMembers[1].slice(2).toUpperCase()}`, null],
  ])('%s is %s', (value, error) => {
    const { actor } = startTransfer();
    actor.send({ type: 'field.change', field: 'toAddress', value });
    expect(selectRecipientError(actor.getSnapshot())).toBe(error);
  });

  it('sends the recipient checksummed and the amount normalized, with the confirmed id', async () => {
    const { actor, sent } = startTransfer();
    actor.send({ type: 'field.change', field: 'toAddress', value: teamMembers[1].toLowerCase() });
    actor.send({ type: 'field.change', field: 'amount', value: '007.50' });
    expect(selectRemaining(actor.getSnapshot())).toBe('22.5');
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm', requestId: transferRequestId });
    await flushPromises();
    expect(sent).toEqual([{ body: { toAddress: teamMembers[1], amount: '7.5' }, requestId: transferRequestId }]);
    expect(actor.getSnapshot().value).toBe('done');
  });

  it('checks the amount against minTransfer and the balance; the summary waits for both fields', () => {
    const { actor } = startTransfer();
    for (const [value, error] of [
      ['0.5', 'belowMin'],
      ['30.000001', 'aboveBalance'],
      ['30', null],
    ] as const) {
      actor.send({ type: 'field.change', field: 'amount', value });
      expect(selectAmountError(actor.getSnapshot())).toBe(error);
    }
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'field.change', field: 'toAddress', value: teamMembers[0] });
    expect(selectCanSubmit(actor.getSnapshot())).toBe(true);
  });

  it('lists the team members matching what was typed, none once a whole member is typed', () => {
    const { actor } = startTransfer();
    expect(selectRecipientMatches(actor.getSnapshot())).toEqual({ matches: [...teamMembers], total: 2 });
    actor.send({ type: 'field.change', field: 'toAddress', value: 'fb69' });
    expect(selectRecipientMatches(actor.getSnapshot())).toEqual({ matches: [teamMembers[1]], total: 1 });
    actor.send({ type: 'field.change', field: 'toAddress', value: teamMembers[1].toLowerCase() });
    expect(selectRecipientMatches(actor.getSnapshot())).toEqual({ matches: [], total: 0 });
  });
});

describe('exchange: what arrives', () => {
  it.each([
    [10_000_000n, 'WPOS', 350_000n, 3_500_000n],
    [1n, 'WPOS', 350_000n, 0n],
    [3n, 'WPOS', 350_000n, 1n],
    [10_000_000n, 'CREDIT', 350_000n, 28_571_428n],
    [1n, 'CREDIT', 3_000_000n, 0n],
    [5n, 'CREDIT', 0n, 0n],
  ] as const)('%s minor %s at rate %s receives %s minor, rounded down', (paid, from, rate, received) => {
    expect(exchangeReceived(paid, from, rate)).toBe(received);
  });

  it('previews what arrives in either direction and checks the balance of the asset paid', () => {
    const { actor } = startExchange();
    actor.send({ type: 'field.change', field: 'amount', value: '10' });
    expect([selectReceived(actor.getSnapshot()), selectReceivedAsset(actor.getSnapshot()), selectPayBalance(actor.getSnapshot())]).toEqual(['3.5', 'CREDIT', '30']);
    actor.send({ type: 'field.change', field: 'from', value: 'CREDIT' });
    expect([selectReceived(actor.getSnapshot()), selectReceivedAsset(actor.getSnapshot()), selectPayBalance(actor.getSnapshot())]).toEqual(['28.571428', 'WPOS', '12.5']);
    expect(selectExchangeError(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'field.change', field: 'amount', value: '12.500001' });
    expect(selectExchangeError(actor.getSnapshot())).toBe('aboveBalance');
  });

  it('refuses an amount that receives nothing before any request', () => {
    const { actor, sent } = startExchange();
    actor.send({ type: 'field.change', field: 'amount', value: '0.000002' });
    expect(selectReceived(actor.getSnapshot())).toBe('0');
    expect(selectExchangeError(actor.getSnapshot())).toBe('receivesNothing');
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(sent).toEqual([]);
  });

  it('sends the direction and the normalized amount with the confirmed id', async () => {
    const { actor, sent } = startExchange();
    actor.send({ type: 'field.change', field: 'from', value: 'CREDIT' });
    actor.send({ type: 'field.change', field: 'amount', value: '2.50' });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm', requestId: exchangeRequestId });
    await flushPromises();
    expect(sent).toEqual([{ body: { from: 'CREDIT', amount: '2.5' }, requestId: exchangeRequestId }]);
  });
});
