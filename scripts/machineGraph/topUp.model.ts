/**
 * The top-up machine's test models: a fresh sheet (the balance read, amounts typed, the wallet's answers) and a
 * sheet that resumes a hash kept in storage; every answer of the check (pending, n of N, credited, invalid, sped up,
 * cancelled, the network dropped). Two unseen looks end the wait here, instead of the app's forty.
 */
import { topUpMachine, type TopUpCheck } from '../../machines/credit/topUpMachine';
import type { MachineModel, ModelEvent } from './modelPaths';

export const topUpHash = `0x${'a1'.repeat(32)}`;
export const topUpSpedUpHash = `0x${'b2'.repeat(32)}`;

const check = (output: TopUpCheck): ModelEvent => ({ type: 'xstate.done.actor.checkTopUp', output });
const walletError = (name: string, code?: number): ModelEvent => ({ type: 'xstate.error.actor.sendTransfer', error: code === undefined ? { name } : { name, code } });

const events: ModelEvent[] = [
  { type: 'field.change', field: 'amount', value: '' },
  { type: 'field.change', field: 'amount', value: '200' },
  { type: 'field.change', field: 'amount', value: '25.5' },
  { type: 'user.submit' },
  { type: 'user.retry' },
  { type: 'user.restart' },
  { type: 'xstate.done.actor.readBalance', output: '120.5' },
  { type: 'xstate.error.actor.readBalance', error: { name: 'TypeError' } },
  { type: 'xstate.done.actor.sendTransfer', output: topUpHash },
  walletError('UserRejectedError', 4001),
  walletError('RequestPendingError', -32002),
  walletError('InsufficientFundsError'),
  walletError('UnauthorizedError', 4100),
  check({ status: 'pending', confirmations: 0, required: 2 }),
  check({ status: 'confirming', confirmations: 1, required: 2, amount: '25.5' }),
  check({ status: 'credited', confirmations: 2, required: 2, amount: '25.5' }),
  check({ status: 'invalid', confirmations: 0, required: 2 }),
  check({ status: 'pending', confirmations: 0, required: 2, replacement: { reason: 'repriced', hash: topUpSpedUpHash } }),
  check({ status: 'pending', confirmations: 0, required: 2, replacement: { reason: 'cancelled', hash: topUpSpedUpHash } }),
  { type: 'xstate.error.actor.checkTopUp', error: { name: 'TypeError' } },
];

export const topUpModels: MachineModel[] = [
  { name: 'new top-up', machine: topUpMachine, input: { pendingHash: null, maxUnseenChecks: 2 }, events },
  { name: 'resumed top-up', machine: topUpMachine, input: { pendingHash: topUpHash, maxUnseenChecks: 2 }, events },
];
