/**
 * The money-flow skeleton as another flow would use it: a form of two fields checked together, its own codes fixed
 * by editing, and the skeleton's rules for every other answer (ADR 0011): the same request id on every retry.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiCode } from '../../api-schema/codes';
import type { Answer } from '../../machines/shared/answer';
import { createMoneyFlowMachine, type SubmitInput } from '../../machines/shared/moneyFlow';
import { selectCanSubmit, selectFieldError, selectFlowView } from '../../machines/shared/moneyFlowSelectors';
import { flushPromises } from '../../scripts/machineGraph/pathWalker';

interface TransferBody {
  to: string;
  amount: string;
}

// A transfer-like flow: a recipient from a list and an amount within a balance.
const transferMachine = createMoneyFlowMachine<{ balance: number; recipients: string[] }, TransferBody, { id: string }>({
  id: 'testTransfer',
  fields: { to: '', amount: '' },
  check: (form, input) => ({
    to: form.to === '' ? 'empty' : input.recipients.includes(form.to ?? '') ? null : 'notInList',
    amount: form.amount === '' ? 'empty' : Number(form.amount) > input.balance ? 'aboveBalance' : null,
  }),
  body: (form) => ({ to: form.to ?? '', amount: form.amount ?? '' }),
  editCodes: [ApiCode.recipientInvalid, ApiCode.insufficientBalance],
  describe: { editing: 'recipient and amount', done: 'sent' },
});

function start() {
  const sent: SubmitInput<TransferBody>[] = [];
  const answers: ((answer: Answer<{ id: string }>) => void)[] = [];
  const machine = transferMachine.provide({
    actors: {
      submit: fromPromise<Answer<{ id: string }>, SubmitInput<TransferBody>>(({ input }) => {
        sent.push(input);
        return new Promise((resolve) => answers.push(resolve));
      }),
    },
  });
  const actor = createActor(machine, { input: { balance: 10, recipients: ['0xB0B'] } }).start();
  const answer = async (code: number) => {
    answers.pop()?.({ code, result: code === 0 ? { id: '9' } : null });
    await flushPromises();
  };
  return { actor, sent, answer };
}

describe('money-flow skeleton with another flow', () => {
  it('checks each field as typed and opens the summary only when all pass', () => {
    const { actor } = start();
    expect(selectFieldError(actor.getSnapshot(), 'to')).toBeNull();
    actor.send({ type: 'field.change', field: 'to', value: '0xC0C' });
    expect(selectFieldError(actor.getSnapshot(), 'to')).toBe('notInList');
    actor.send({ type: 'field.change', field: 'to', value: '0xB0B' });
    actor.send({ type: 'field.change', field: 'amount', value: '11' });
    expect(selectFieldError(actor.getSnapshot(), 'amount')).toBe('aboveBalance');
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'user.submit' });
    expect(selectFlowView(actor.getSnapshot())).toBe('editing');
    actor.send({ type: 'field.change', field: 'amount', value: '3' });
    actor.send({ type: 'user.submit' });
    expect(selectFlowView(actor.getSnapshot())).toBe('confirming');
  });

  it("goes back to the form and drops the id on the flow's own codes; keeps it for any other", async () => {
    const { actor, sent, answer } = start();
    actor.send({ type: 'field.change', field: 'to', value: '0xB0B' });
    actor.send({ type: 'field.change', field: 'amount', value: '3' });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm', requestId: 'id-1' });
    await answer(ApiCode.recipientInvalid);
    expect(selectFlowView(actor.getSnapshot())).toBe('editing');
    expect(actor.getSnapshot().context.requestId).toBeNull();
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm', requestId: 'id-2' });
    // 3002 is not this flow's editing code: a failure, retried with the same id.
    await answer(ApiCode.amountOutOfLimits);
    expect(selectFlowView(actor.getSnapshot())).toBe('failed');
    actor.send({ type: 'user.retry' });
    await answer(ApiCode.ok);
    expect(selectFlowView(actor.getSnapshot())).toBe('done');
    expect(sent).toEqual([
      { body: { to: '0xB0B', amount: '3' }, requestId: 'id-1' },
      { body: { to: '0xB0B', amount: '3' }, requestId: 'id-2' },
      { body: { to: '0xB0B', amount: '3' }, requestId: 'id-2' },
    ]);
  });
});
