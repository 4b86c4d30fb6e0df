import { configMachine } from '../../machines/config/configMachine';
import type { MachineModel, ModelEvent } from './modelPaths';
import { bscChainParams } from './wallet.model';

export const dappParamFixture = { chainId: 56, chain: bscChainParams, minWithdraw: '10', siweDomain: 'localhost' };

const events: ModelEvent[] = [
  { type: 'xstate.done.actor.readStoredDappParam', output: {} },
  { type: 'xstate.done.actor.readStoredDappParam', output: dappParamFixture },
  { type: 'xstate.error.actor.readStoredDappParam', error: new Error('the contract module did not load') },
  { type: 'user.retry' },
  { type: 'app.refresh' },
  { type: 'xstate.done.actor.fetchDappParam', output: { code: 0, result: dappParamFixture } },
  { type: 'xstate.done.actor.fetchDappParam', output: { code: -1, result: null } },
];

export const configModel: MachineModel = { name: 'config', machine: configMachine, events };
