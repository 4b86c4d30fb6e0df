/**
 * The withdrawal's promise about money: every retry of one confirmation sends the same request id and body, a
 * rejection the member fixes by editing drops the id, and the amount goes out in the API's canonical form.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { withdrawMachine } from '../../machines/credit/withdrawMachine';
import type { SubmitWithdrawalInput, WithdrawAnswer } from '../../machines/credit/withdrawMachine';
import { selectAmountError as selectFieldError, selectReceive, selectWithdrawalNext } from '../../machines/credit/withdrawSelectors';
import { selectCanSubmit, selectFlowView as selectWithdrawView } from '../../machines/shared/moneyFlowSelectors';
import { flushPromises } from '../../scripts/machineGraph/pathWalker';
import { withdrawInput } from '../../scripts/machineGraph/withdraw.model';

function start() {
  const sent: SubmitWithdrawalInput[] = [];
  const answers: ((answer: WithdrawAnswer) => void)[] = [];
  const machine = withdrawMachine.provide({
    actors: {
      submit: fromPromise<WithdrawAnswer, SubmitWithdrawalInput>(({ input }) => {
        sent.push(input);
        return new Promise((resolve) => answers.push(resolve));
      }),
    },
  });
  const actor = createActor(machine, { input: withdrawInput }).start();
  const answer = async (code: number, status: 'pending' | 'approved' | 'sent' | 'done' | 'failed' = 'pending') => {
    answers.pop()?.({ code, result: code === 0 ? { id: '7', amount: '12.5', fee: '1', status } : null });
    await flushPromises();
  };
  return { actor, sent, answer };
}

describe('withdraw: one request id per confirmation', () => {
  it('checks the amount as typed and shows what arrives from the fee', () => {
    const { actor } = start();
    expect(selectFieldError(actor.getSnapshot())).toBeNull();
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
    for (const [value, error] of [
      ['1.1234567', 'tooManyDecimals'],
      ['0', 'notPositive'],
      ['9.99', 'belowMin'],
      ['120.500001', 'aboveBalance'],
      ['12.50', null],
    ] as const) {
      actor.send({ type: 'field.change', field: 'amount', value });
      expect(selectFieldError(actor.getSnapshot())).toBe(error);
    }
    expect(selectReceive(actor.getSnapshot())).toBe('11.5');
    expect(selectCanSubmit(actor.getSnapshot())).toBe(true);
  });

  it('retries with the same id and body after -1, 4290, 5000, 3005 and a member who stopped waiting', async () => {
    const { actor, sent, answer } = start();
    actor.send({ type: 'field.change', field: 'amount', value: '012.50' });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm', requestId: 'id-1' });
    for (const code of [-1, 4290, 5000, 3005]) {
      await answer(code);
      expect(selectWithdrawView(actor.getSnapshot())).toBe('failed');
      actor.send({ type: 'user.retry' });
    }
    actor.send({ type: 'user.cancel' });
    expect(selectWithdrawView(actor.getSnapshot())).toBe('interrupted');
    actor.send({ type: 'user.retry' });
    await answer(0);
    expect(selectWithdrawView(actor.getSnapshot())).toBe('done');
    expect(sent).toEqual(Array.from({ length: 6 }, () => ({ body: { amount: '12.5' }, requestId: 'id-1' })));
  });

  it.each([3001, 3002, 3003])('drops the id on %i, so the next confirmation sends a new one', async (code) => {
    const { actor, sent, answer } = start();
    actor.send({ type: 'field.change', field: 'amount', value: '12.5' });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm', requestId: 'id-1' });
    await answer(code);
    expect(selectWithdrawView(actor.getSnapshot())).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({ requestId: null, error: { name: 'ApiError', code } });
    actor.send({ type: 'field.change', field: 'amount', value: '11' });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm', requestId: 'id-2' });
    expect(sent.map((input) => input.requestId)).toEqual(['id-1', 'id-2']);
  });

  it('ends on 1002', async () => {
    const { actor, answer } = start();
    actor.send({ type: 'field.change', field: 'amount', value: '12.5' });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm', requestId: 'id-1' });
    await answer(1002);
    expect(selectWithdrawView(actor.getSnapshot())).toBe('sessionEnded');
    expect(actor.getSnapshot().status).toBe('done');
  });
});

describe('withdraw: what happens next, from the status the server answered', () => {
  for (const [status, next] of [
    ['pending', 'review'],
    ['approved', 'payment'],
    ['sent', 'payment'],
    ['done', 'paid'],
    ['failed', 'refunded'],
  ] as const) {
    it(`says ${next} for a withdrawal recorded as ${status}`, async () => {
      const { actor, answer } = start();
      expect(selectWithdrawalNext(actor.getSnapshot())).toBeNull();
      actor.send({ type: 'field.change', field: 'amount', value: '12.5' });
      actor.send({ type: 'user.submit' });
      actor.send({ type: 'user.confirm', requestId: '6f1c2a3e-8b4d-4f5e-9a6b-7c8d9e0f1a2b' });
      await answer(0, status);
      expect(actor.getSnapshot().value).toBe('done');
      expect(selectWithdrawalNext(actor.getSnapshot())).toBe(next);
    });
  }
});
