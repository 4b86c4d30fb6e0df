import { configMachine } from '../../machines/config/configMachine';
import type { MachineModel, ModelEvent } from '../support/modelPaths';
import { bscChainParams } from './wallet.model';

export const dappParamFixture = { chainId: 56, chain: bscChainParams, minWithdraw: '10', siweDomain: 'localhost' };

const events: ModelEvent[] = [
  { type: 'user.retry' },
  { type: 'app.refresh' },
  { type: 'xstate.done.actor.fetchDappParam', output: { code: 0, result: dappParamFixture } },
  { type: 'xstate.done.actor.fetchDappParam', output: { code: -1, result: null } },
];

export const configModel: MachineModel = { name: 'config', machine: configMachine, input: { stored: {} }, events };
export const configModelFromStorage: MachineModel = { ...configModel, name: 'config (stored param)', input: { stored: dappParamFixture } };
