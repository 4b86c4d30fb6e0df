/**
 * The wallet machine's test model: the events a wallet browser and a member can produce, with real payloads.
 * Error payloads carry the names and codes src/wallet/errors.ts gives to what real wallets answer.
 */
import { walletMachine } from '../../machines/wallet/walletMachine';
import type { AddChainParameters, ProviderInfo } from '../../machines/wallet/walletMachine';
import type { MachineModel } from './modelPaths';

export const accountA = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
export const accountB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
export const bscChainParams: AddChainParameters = {
  chainName: 'BNB Smart Chain',
  nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
  rpcUrls: ['https://bsc-dataseed.bnbchain.org'],
  blockExplorerUrls: ['https://bscscan.com'],
};
const metaMask: ProviderInfo = { id: 'io.metamask', name: 'MetaMask' };
const phantom: ProviderInfo = { id: 'phantom', name: 'Phantom' };

const error = (name: string, code?: number) => (code === undefined ? { name } : { name, code });

export const walletModel: MachineModel = {
  name: 'wallet',
  machine: walletMachine,
  callbackActors: ['listenToProvider'],
  events: [
    { type: 'user.connect', chainId: 56, chainParams: bscChainParams },
    { type: 'user.connect', chainId: 56 },
    { type: 'app.connectEagerly' },
    // The wallet the member connected last, remembered by its id (an EIP-6963 rdns) from the visit before.
    { type: 'app.connectEagerly', providerId: 'phantom' },
    { type: 'user.chooseProvider', providerId: 'phantom' },
    { type: 'user.chooseProvider', providerId: 'not.announced' },
    { type: 'user.cancel' },
    { type: 'user.disconnect' },
    { type: 'provider.accountsChanged', accounts: [] },
    { type: 'provider.accountsChanged', accounts: [accountB] },
    { type: 'provider.chainChanged', chainId: '0x38' },
    { type: 'provider.chainChanged', chainId: 1 },
    { type: 'provider.connect', chainId: '56' },
    { type: 'provider.disconnect', error: { code: 1013, message: 'reconnecting' } },
    { type: 'provider.disconnect', error: { code: 4900, message: 'disconnected' } },
    { type: 'provider.detected' },
    { type: 'xstate.done.actor.findProviders', output: [] },
    { type: 'xstate.done.actor.findProviders', output: [metaMask] },
    { type: 'xstate.done.actor.findProviders', output: [metaMask, phantom] },
    { type: 'xstate.error.actor.findProviders', error: error('UnknownWalletError') },
    { type: 'xstate.done.actor.readAccounts', output: [] },
    { type: 'xstate.done.actor.readAccounts', output: [accountA] },
    { type: 'xstate.error.actor.readAccounts', error: error('UnknownWalletError', -32603) },
    { type: 'xstate.done.actor.requestAccounts', output: [accountA] },
    { type: 'xstate.done.actor.requestAccounts', output: [] },
    { type: 'xstate.error.actor.requestAccounts', error: error('UserRejectedError', 4001) },
    { type: 'xstate.error.actor.requestAccounts', error: error('RequestPendingError', -32002) },
    { type: 'xstate.done.actor.readChainId', output: '0x38' },
    { type: 'xstate.done.actor.readChainId', output: '0x1' },
    { type: 'xstate.done.actor.readChainId', output: 56 },
    { type: 'xstate.done.actor.readChainId', output: '1' },
    { type: 'xstate.error.actor.readChainId', error: error('WalletTimeoutError') },
    { type: 'xstate.error.actor.readChainId', error: error('UnknownWalletError', -32603) },
    { type: 'xstate.done.actor.switchChain', output: null },
    { type: 'xstate.error.actor.switchChain', error: error('UnrecognizedChainError', 4902) },
    { type: 'xstate.error.actor.switchChain', error: error('UserRejectedError', 4001) },
    { type: 'xstate.error.actor.switchChain', error: error('RequestPendingError', -32002) },
    // Trust Wallet's unknown chain in the member's language, without a code the app knows (walletQuirks.ts).
    { type: 'xstate.error.actor.switchChain', error: error('UnknownWalletError', -32603) },
    // imToken before 2.10: cannot switch chains (walletQuirks.ts).
    { type: 'xstate.error.actor.switchChain', error: error('UnsupportedMethodError', 4200) },
    { type: 'xstate.done.actor.addChain', output: null },
    { type: 'xstate.error.actor.addChain', error: error('UserRejectedError', 4001) },
    { type: 'xstate.error.actor.addChain', error: error('RequestPendingError', -32002) },
    { type: 'xstate.error.actor.addChain', error: error('UnsupportedMethodError', -32601) },
  ],
};
