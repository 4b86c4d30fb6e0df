/**
 * The exchange machine's test model: a rate at which rounding matters, both balances, the two directions, typed
 * amounts (none, one that receives nothing, above the balance, valid), one request id, and every answer
 * flashExchange can give that the machine tells apart.
 */
import { exchangeMachine } from '../../machines/exchange/exchangeMachine';
import type { ExchangeInput } from '../../machines/exchange/exchangeMachine';
import type { MachineModel, ModelEvent } from './modelPaths';

export const exchangeInput: ExchangeInput = { rate: '0.35', wposBalance: '30', creditBalance: '12.5' };

export const exchangeRequestId = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';

const answer = (code: number): ModelEvent => ({ type: 'xstate.done.actor.submit', output: { code, result: null } });
const field = (name: string, value: string): ModelEvent => ({ type: 'field.change', field: name, value });

export const exchangeModel: MachineModel = {
  name: 'exchange',
  machine: exchangeMachine,
  input: exchangeInput,
  events: [
    field('from', 'CREDIT'),
    field('from', 'WPOS'),
    field('amount', ''),
    field('amount', '0.000002'),
    field('amount', '40'),
    field('amount', '10'),
    { type: 'user.submit' },
    { type: 'user.edit' },
    { type: 'user.confirm', requestId: exchangeRequestId },
    { type: 'user.retry' },
    { type: 'user.cancel' },
    { type: 'xstate.done.actor.submit', output: { code: 0, result: { id: '81', paid: '10', received: '3.5', rate: '0.35' } } },
    answer(1002),
    answer(3002),
    answer(3005),
    answer(-1),
    answer(1001),
    { type: 'xstate.error.actor.submit', error: { name: 'TypeError' } },
  ],
};
