import { copyMachine } from '../../machines/clipboard/copyMachine';
import type { MachineModel } from './modelPaths';

export const copyModel: MachineModel = {
  name: 'copy',
  machine: copyMachine,
  events: [
    { type: 'user.copy', id: 'link', text: 'https://example.org/login/AB12CD34' },
    { type: 'xstate.done.actor.writeClipboard', output: null },
    { type: 'xstate.error.actor.writeClipboard', error: { name: 'NotAllowedError' } },
  ],
};
