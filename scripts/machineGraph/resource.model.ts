import { resourceMachine } from '../../machines/resource/resourceMachine';
import type { MachineModel } from './modelPaths';

export const resourceModel: MachineModel = {
  name: 'resource',
  machine: resourceMachine,
  input: { query: { id: 'welcome', lang: 'zh' } },
  events: [
    { type: 'user.retry' },
    { type: 'user.changeQuery', query: { id: 'welcome', lang: 'en' } },
    { type: 'xstate.done.actor.fetchResource', output: { code: 0, result: { title: 'Welcome', content: '<p>Hi</p>' } } },
    { type: 'xstate.done.actor.fetchResource', output: { code: 4004, result: null } },
    { type: 'xstate.done.actor.fetchResource', output: { code: -1, result: null } },
    { type: 'xstate.error.actor.fetchResource', error: { name: 'TypeError' } },
  ],
};
