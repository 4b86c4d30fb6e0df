import { pagedListMachine } from '../../machines/list/pagedListMachine';
import type { MachineModel, ModelEvent } from './modelPaths';

const page = (list: readonly string[], total: number) => ({ code: 0, result: { list, total, page: 1, pageSize: 2 } });
/** Every answer a page fetch can give, for each of the three fetches the machine invokes. */
const answers = (id: string): ModelEvent[] => [
  { type: `xstate.done.actor.${id}`, output: page(['a', 'b'], 5) },
  { type: `xstate.done.actor.${id}`, output: page(['c'], 5) },
  { type: `xstate.done.actor.${id}`, output: page([], 0) },
  { type: `xstate.done.actor.${id}`, output: { code: -1, result: null } },
  { type: `xstate.error.actor.${id}`, error: { name: 'TypeError' } },
];

export const pagedListModel: MachineModel = {
  name: 'pagedList',
  machine: pagedListMachine,
  input: { query: { type: 'all' }, pageSize: 2 },
  events: [
    { type: 'user.loadMore' },
    { type: 'user.refresh' },
    { type: 'user.retry' },
    { type: 'user.changeQuery', query: { type: 'withdraw' } },
    ...answers('fetchFirstPage'),
    ...answers('fetchNextPage'),
    ...answers('refreshFirstPage'),
  ],
};
