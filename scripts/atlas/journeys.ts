/**
 * The named journeys: a member's way through one machine, told as events, walked against the
 * real machine by the same walker as the path tests, and shown as a storyboard the diagram highlights. A journey the
 * machine no longer allows fails `npm run atlas -- --check`.
 */
import type { AtlasMachine } from './model';
import { atlasEntries, toAtlasPath } from './model';
import { nonceAnswer, userInfoA } from '../machineGraph/auth.model';
import { withdrawRequestId } from '../machineGraph/withdraw.model';
import { topUpHash } from '../machineGraph/topUp.model';
import { buyRequestId, checkoutOf, mug } from '../machineGraph/buy.model';
import { pathFromEvents } from '../machineGraph/modelPaths';
import type { EventSpec } from '../machineGraph/modelPaths';
import { walkPath } from '../machineGraph/pathWalker';
import type { Journey } from './screens';

interface JourneyDefinition {
  machine: string;
  /** Its id; its name is `journey.<id>` in locales/<lng>/atlas.json. */
  id: string;
  /** The test model to walk (default: the machine's first). */
  model?: string;
  events: readonly EventSpec[];
}

const metaMask = { id: 'io.metamask', name: 'MetaMask' };
const connect = { type: 'user.connect', chainId: 56, chainParams: { chainName: 'BNB Smart Chain', nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 }, rpcUrls: ['https://bsc-dataseed.bnbchain.org'], blockExplorerUrls: ['https://bscscan.com'] } };
const accounts = { type: 'xstate.done.actor.requestAccounts', output: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'] };
const oneWallet = { type: 'xstate.done.actor.findProviders', output: [metaMask] };
const onEthereum = { type: 'xstate.done.actor.readChainId', output: '0x1' };
const switchError = (name: string, code: number) => ({ type: 'xstate.error.actor.switchChain', error: { name, code } });

export const journeyDefinitions: readonly JourneyDefinition[] = [
  {
    machine: 'wallet',
    id: 'walletConnect',
    events: [connect, oneWallet, accounts, { type: 'xstate.done.actor.readChainId', output: '0x38' }],
  },
  {
    machine: 'wallet',
    id: 'walletAddChain',
    events: [connect, oneWallet, accounts, onEthereum, switchError('UnrecognizedChainError', 4902), { type: 'xstate.done.actor.addChain', output: null }, accounts, { type: 'xstate.done.actor.readChainId', output: '0x38' }],
  },
  {
    machine: 'wallet',
    id: 'walletSwitchRefused',
    events: [connect, oneWallet, accounts, onEthereum, switchError('UserRejectedError', 4001)],
  },
  {
    machine: 'wallet',
    id: 'walletManualSwitch',
    events: [connect, oneWallet, accounts, onEthereum, switchError('UnsupportedMethodError', 4200), { type: 'provider.chainChanged', chainId: '0x38' }],
  },
  {
    machine: 'auth',
    id: 'signInWithInvite',
    events: [
      { type: 'user.signIn', inviteCode: 'DEMO2026' },
      { type: 'xstate.done.actor.fetchNonce', output: { code: 0, result: nonceAnswer } },
      { type: 'xstate.done.actor.signMessage' },
      { type: 'xstate.done.actor.verifySignature', output: { code: 0, auth: 'token-temp', isFinishedBind: false } },
      { type: 'user.bind', inviteCode: 'DEMO2026' },
      { type: 'xstate.done.actor.bindRecommender', output: { code: 0 } },
      { type: 'xstate.done.actor.loadUserInfo', output: { code: 0, result: userInfoA } },
    ],
  },
  {
    machine: 'withdraw',
    id: 'withdrawNetworkDropRetry',
    events: [
      { type: 'field.change', field: 'amount', value: '12.5' },
      { type: 'user.submit' },
      { type: 'user.confirm', requestId: withdrawRequestId },
      { type: 'xstate.error.actor.submit', error: { name: 'TypeError' } },
      { type: 'user.retry' },
      { type: 'xstate.done.actor.submit', output: { code: 0, result: { id: '41', amount: '12.5', fee: '1', status: 'pending' } } },
    ],
  },
  {
    machine: 'topUp',
    id: 'topUpCredited',
    events: [
      { type: 'xstate.done.actor.readBalance', output: '120.5' },
      { type: 'field.change', field: 'amount', value: '25.5' },
      { type: 'user.submit' },
      { type: 'xstate.done.actor.sendTransfer', output: topUpHash },
      { type: 'xstate.done.actor.checkTopUp', output: { status: 'confirming', confirmations: 1, required: 2, amount: '25.5' } },
      { type: 'xstate.after.checkInterval.topUp.waitingForBlocks' },
      { type: 'xstate.done.actor.checkTopUp', output: { status: 'credited', confirmations: 2, required: 2, amount: '25.5' } },
    ],
  },
  {
    machine: 'topUp',
    id: 'topUpRefusedInWallet',
    events: [
      { type: 'xstate.done.actor.readBalance', output: '120.5' },
      { type: 'field.change', field: 'amount', value: '25.5' },
      { type: 'user.submit' },
      { type: 'xstate.error.actor.sendTransfer', error: { name: 'UserRejectedError', code: 4001 } },
    ],
  },
  {
    machine: 'settlement',
    id: 'settlementStockRanShort',
    events: [
      { type: 'xstate.done.actor.loadCheckout', output: checkoutOf() },
      { type: 'user.confirm', requestId: buyRequestId },
      { type: 'xstate.done.actor.checkBeforePaying', output: checkoutOf() },
      { type: 'xstate.done.actor.settle', output: { code: 3002, result: null } },
      { type: 'xstate.done.actor.refreshCheckout', output: checkoutOf({ ...mug, stock: 1 }) },
    ],
  },
];

/**
 * Walks every named journey and adds its path to its machine (ids after the generated paths').
 *
 * @param machines - the atlas' machines; each journey's path joins its machine's paths
 * @returns the journeys with their path ids
 * @example
 * const journeys = await journeysOf(machines);
 */
export async function journeysOf(machines: AtlasMachine[]): Promise<Journey[]> {
  const journeys: Journey[] = [];
  for (const definition of journeyDefinitions) {
    const machine = machines.find((m) => m.name === definition.machine);
    const entry = atlasEntries().find((e) => e.name === definition.machine);
    const model = entry?.models.find((m) => definition.model === undefined || m.name === definition.model);
    if (!machine || !model) throw new Error(`journey ${definition.id}: no machine or model ${definition.machine}`);
    const path = pathFromEvents(model, definition.events);
    // Walked against the real machine, as the path tests walk theirs: a journey it does not allow fails here.
    await walkPath(model, path);
    const atlasPath = toAtlasPath(machine, model, path, `p-${machine.paths.length + 1}`);
    machine.paths.push(atlasPath);
    journeys.push({ machine: machine.name, textKey: `journey.${definition.id}`, pathId: atlasPath.id });
  }
  return journeys;
}

/**
 * The questions the index answers at once: each points at the transition that answers it,
 * whose text and screenshot the index shows. Its wording is `question.<id>` in locales/<lng>/atlas.json.
 */
export const questions: ReadonlyArray<{ id: string; machine: string; transition: string }> = [
  { id: 'switchRefused', machine: 'wallet', transition: 'wallet.switchingChain:error.switchChain' },
  { id: 'withdrawalDropped', machine: 'withdraw', transition: 'withdraw.submitting:error.submit' },
  { id: 'soldOut', machine: 'settlement', transition: 'settlement.paying:done.settle[isFixedByConfirmingAgain]' },
];
