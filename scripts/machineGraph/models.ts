/**
 * Every machine with its test models, in the order the diagrams index lists them: the member's here, then the buy
 * flow's (buy.model.ts) and the desk's (ops.model.ts). scripts/diagrams.ts, the atlas and the path tests
 * (tests/machines) read this one list, so a machine without a model has neither diagram nor tests and is noticed.
 */
import type { MachineEntry } from './modelPaths';

export type { MachineEntry } from './modelPaths';
import { walletModel } from './wallet.model';
import { authModels } from './auth.model';
import { configModel } from './config.model';
import { copyModel } from './copy.model';
import { pagedListModel } from './pagedList.model';
import { searchModel } from './search.model';
import { resourceModel } from './resource.model';
import { withdrawModel } from './withdraw.model';
import { transferModel } from './transfer.model';
import { exchangeModel } from './exchange.model';
import { topUpModels } from './topUp.model';
import { watchAssetModel } from './watchAsset.model';
import { buyMachineEntries } from './buy.model';
import { opsMachineEntries } from './ops.model';

export const machineEntries: MachineEntry[] = [
  {
    name: 'wallet',
    source: 'machines/wallet/walletMachine.ts',
    summary: 'Wallet connection: discovery, the wallet remembered among several, accounts, switching and adding the chain, provider events.',
    models: [walletModel],
  },
  {
    name: 'auth',
    source: 'machines/auth/authMachine.ts',
    summary: 'Sign-In with Ethereum, temporary and main tokens, binding a recommender, session restore and sign-out.',
    models: authModels,
  },
  {
    name: 'config',
    source: 'machines/config/configMachine.ts',
    summary: 'App config (dappParam): the stored one checked, then fetched, stored in DAPP_PARAM, retried.',
    models: [configModel],
  },
  {
    name: 'copy',
    source: 'machines/clipboard/copyMachine.ts',
    summary: 'Copying the invite link or code, with a short confirmation.',
    models: [copyModel],
  },
  {
    name: 'pagedList',
    source: 'machines/list/pagedListMachine.ts',
    summary: 'Any list the member pages through: first page, more on scroll, refresh, retry, a changed filter.',
    models: [pagedListModel],
  },
  {
    name: 'search',
    source: 'machines/search/searchMachine.ts',
    summary: 'Search as you type: checked keyword, a pause, the newest answer only, retry.',
    models: [searchModel],
  },
  {
    name: 'resource',
    source: 'machines/resource/resourceMachine.ts',
    summary: 'One document (an announcement, the about page): loading, not found, retry, reload in another language.',
    models: [resourceModel],
  },
  {
    name: 'withdraw',
    source: 'machines/credit/withdrawMachine.ts',
    summary: 'Withdrawing credit: the amount checked as typed, a summary, one request id for every retry, each server code.',
    models: [withdrawModel],
  },
  {
    name: 'transfer',
    source: 'machines/wpos/transferMachine.ts',
    summary: 'Transferring WPOS to a team member: recipient and amount checked as typed, a summary, one request id for every retry.',
    models: [transferModel],
  },
  {
    name: 'exchange',
    source: 'machines/exchange/exchangeMachine.ts',
    summary: 'Flash exchange between WPOS and credit: direction, amount and what arrives at the rate, one request id for every retry.',
    models: [exchangeModel],
  },
  {
    name: 'topUp',
    source: 'machines/credit/topUpMachine.ts',
    summary: 'Topping up credit from the wallet: the token balance, the wallet transaction and its refusals, n of N blocks, sped up or cancelled, resumed after a reload.',
    models: topUpModels,
  },
  {
    name: 'watchAsset',
    source: 'machines/wallet/watchAssetMachine.ts',
    summary: "Adding the app's token to the wallet (wallet_watchAsset) after a top-up or a withdrawal: listed, refused, or added by hand where the wallet cannot.",
    models: [watchAssetModel],
  },
  ...buyMachineEntries,
  ...opsMachineEntries,
];
