import { searchMachine } from '../../machines/search/searchMachine';
import type { MachineModel } from './modelPaths';

export const searchModel: MachineModel = {
  name: 'search',
  machine: searchMachine,
  events: [
    { type: 'user.type', keyword: '' },
    { type: 'user.type', keyword: '0x3c' },
    { type: 'user.type', keyword: "3c4'; drop" },
    { type: 'user.type', keyword: '0x3C44' },
    { type: 'user.retry' },
    { type: 'xstate.done.actor.search', output: { code: 0, result: { list: [{ address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' }] } } },
    { type: 'xstate.done.actor.search', output: { code: 0, result: { list: [] } } },
    { type: 'xstate.done.actor.search', output: { code: -1, result: null } },
    { type: 'xstate.error.actor.search', error: { name: 'TypeError' } },
  ],
};
