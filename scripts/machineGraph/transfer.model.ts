/**
 * The transfer machine's test model: the fake API's minTransfer, a WPOS balance, a team list of two, and typed
 * recipients (none, malformed, a wrong checksum, the member's own, a stranger, a team member typed in lowercase)
 * and amounts (none, below minTransfer, valid), one request id, and every answer transferWpos can give that the
 * machine tells apart.
 */
import { transferMachine } from '../../machines/wpos/transferMachine';
import type { TransferInput } from '../../machines/wpos/transferMachine';
import type { MachineModel, ModelEvent } from './modelPaths';
import { accountA } from './wallet.model';

/** Two members of the team, checksummed as the server lists them. */
export const teamMembers = ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'] as const;
/** The first of them with one letter's case flipped: a wrong EIP-55 checksum. */
export const wrongChecksum = '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** An address outside the team. */
export const stranger = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';

export const transferInput: TransferInput = { ownAddress: accountA, recipients: teamMembers, minTransfer: '1', balance: '30' };

export const transferRequestId = '0b7e4c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b';

const answer = (code: number): ModelEvent => ({ type: 'xstate.done.actor.submit', output: { code, result: null } });
const recipient = (value: string): ModelEvent => ({ type: 'field.change', field: 'toAddress', value });
const amount = (value: string): ModelEvent => ({ type: 'field.change', field: 'amount', value });

export const transferModel: MachineModel = {
  name: 'transfer',
  machine: transferMachine,
  input: transferInput,
  events: [
    recipient('0x12'),
    recipient(wrongChecksum),
    recipient(stranger),
    recipient(accountA),
    recipient(teamMembers[0].toLowerCase()),
    amount(''),
    amount('0.5'),
    amount('12.5'),
    { type: 'user.submit' },
    { type: 'user.edit' },
    { type: 'user.confirm', requestId: transferRequestId },
    { type: 'user.retry' },
    { type: 'user.cancel' },
    { type: 'xstate.done.actor.submit', output: { code: 0, result: { id: '77', amount: '12.5', status: 'done' } } },
    answer(1002),
    answer(3001),
    answer(3004),
    answer(3005),
    answer(-1),
    answer(1001),
    { type: 'xstate.error.actor.submit', error: { name: 'TypeError' } },
  ],
};
