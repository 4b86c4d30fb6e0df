/**
 * The withdraw machine's test model: the limits of tests/support/fakeApi.ts's dappParam, a balance, a few typed
 * amounts (none, too small, valid), one request id, and every answer withdrawCredit can give that the machine tells
 * apart.
 */
import { withdrawMachine } from '../../machines/credit/withdrawMachine';
import type { WithdrawInput } from '../../machines/credit/withdrawMachine';
import type { MachineModel, ModelEvent } from './modelPaths';

export const withdrawInput: WithdrawInput = {
  minWithdraw: '10',
  maxWithdraw: '10000',
  withdrawFee: '1',
  dailyWithdrawCap: '50000',
  balance: '120.5',
};

/** The request id the page creates when the member confirms (crypto.randomUUID()). */
export const withdrawRequestId = '6f1c2a3e-8b4d-4f5e-9a6b-7c8d9e0f1a2b';

const answer = (code: number): ModelEvent => ({ type: 'xstate.done.actor.submit', output: { code, result: null } });

export const withdrawModel: MachineModel = {
  name: 'withdraw',
  machine: withdrawMachine,
  input: withdrawInput,
  events: [
    { type: 'field.change', field: 'amount', value: '' },
    { type: 'field.change', field: 'amount', value: '5' },
    { type: 'field.change', field: 'amount', value: '12.5' },
    { type: 'user.submit' },
    { type: 'user.edit' },
    { type: 'user.confirm', requestId: withdrawRequestId },
    { type: 'user.retry' },
    { type: 'user.cancel' },
    { type: 'xstate.done.actor.submit', output: { code: 0, result: { id: '41', amount: '12.5', fee: '1', status: 'pending' } } },
    answer(1002),
    answer(3001),
    answer(3002),
    answer(3003),
    answer(3005),
    answer(-1),
    answer(1001),
    { type: 'xstate.error.actor.submit', error: { name: 'TypeError' } },
  ],
};
