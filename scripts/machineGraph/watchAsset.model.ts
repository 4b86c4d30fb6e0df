/**
 * The watchAsset machine's test model: the member taps "add to wallet", and every answer a wallet gives to
 * wallet_watchAsset (listed, false, 4001, 4200 or -32601, anything else), with the names src/wallet/errors.ts gives them.
 */
import { watchAssetMachine } from '../../machines/wallet/watchAssetMachine';
import type { MachineModel } from './modelPaths';

const failure = (name: string, code?: number) => ({ type: 'xstate.error.actor.watchAsset', error: code === undefined ? { name } : { name, code } });

export const watchAssetModel: MachineModel = {
  name: 'watchAsset',
  machine: watchAssetMachine,
  events: [
    { type: 'user.add' },
    { type: 'xstate.done.actor.watchAsset', output: true },
    { type: 'xstate.done.actor.watchAsset', output: false },
    failure('UserRejectedError', 4001),
    failure('UnsupportedMethodError', 4200),
    failure('WalletTimeoutError'),
  ],
};
