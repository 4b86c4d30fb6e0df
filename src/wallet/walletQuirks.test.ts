/**
 * The quirk table is live: each wallet answer it lists goes through the app's error mapping and into the wallet
 * machine (with fake actors), and must end where the table says.
 */
import { describe, expect, it } from 'vitest';
import { matchesState } from 'xstate';
import { toErrorInfo } from '../../machines/shared/errorInfo';
import type { ModelEvent } from '../../scripts/machineGraph/modelPaths';
import { startHarness } from '../../scripts/machineGraph/pathWalker';
import { accountA, bscChainParams, walletModel } from '../../scripts/machineGraph/wallet.model';
import { toWalletError } from './errors';
import { walletQuirks } from './walletQuirks';
import type { AnswerQuirk } from './walletQuirks';

const answerQuirks = walletQuirks.filter((quirk): quirk is AnswerQuirk => quirk.kind === 'answer');

/** Connects to chain 56 from a wallet on chain 1, up to the request the quirk answers. */
async function reachRequest(deliver: (event: ModelEvent) => Promise<void>, request: AnswerQuirk['request']): Promise<void> {
  await deliver({ type: 'user.connect', chainId: 56, chainParams: bscChainParams });
  await deliver({ type: 'xstate.done.actor.findProviders', output: [{ id: 'com.example.wallet', name: 'Wallet' }] });
  await deliver({ type: 'xstate.done.actor.requestAccounts', output: [accountA] });
  await deliver({ type: 'xstate.done.actor.readChainId', output: '0x1' });
  if (request === 'wallet_addEthereumChain') {
    // A switch answered -32603 in some language: the app tries adding the chain once.
    await deliver({ type: 'xstate.error.actor.switchChain', error: toErrorInfo(toWalletError({ code: -32603, message: '内部错误' })) });
  }
}

describe('wallet quirks (src/wallet/walletQuirks.ts)', () => {
  it('every row names a public source and a unique id', () => {
    for (const quirk of walletQuirks) expect(quirk.source).toMatch(/^https:\/\//);
    expect(new Set(walletQuirks.map((quirk) => quirk.id)).size).toBe(walletQuirks.length);
  });

  it.each(answerQuirks.map((quirk) => [quirk.id, quirk] as const))('%s: mapped and handled as the table says', async (_, quirk) => {
    const error = toWalletError({ ...quirk.answer });
    expect(error.name).toBe(quirk.errorName);

    const harness = startHarness(walletModel);
    const deliver = (event: ModelEvent) => harness.deliver(event);
    try {
      await reachRequest(deliver, quirk.request);
      const actor = quirk.request === 'wallet_switchEthereumChain' ? 'switchChain' : 'addChain';
      expect(harness.actor.getSnapshot().value).toBe(quirk.request === 'wallet_switchEthereumChain' ? 'switchingChain' : 'addingChain');
      await deliver({ type: `xstate.error.actor.${actor}`, error: toErrorInfo(error) });
      expect(matchesState(quirk.leadsTo, harness.actor.getSnapshot().value)).toBe(true);
    } finally {
      harness.stop();
    }
  });

  it('behavior: an unknown chain in any language is added once; the same answer after that ends the switch', async () => {
    const localised = answerQuirks.find((quirk) => quirk.id === 'trust-unrecognized-chain-localised');
    if (!localised) throw new Error('the table lost the localised Trust row');
    const error = toErrorInfo(toWalletError({ ...localised.answer }));
    const harness = startHarness(walletModel);
    const deliver = (event: ModelEvent) => harness.deliver(event);
    try {
      await reachRequest(deliver, 'wallet_switchEthereumChain');
      await deliver({ type: 'xstate.error.actor.switchChain', error });
      expect(harness.actor.getSnapshot().value).toBe('addingChain');
      await deliver({ type: 'xstate.done.actor.addChain', output: null });
      await deliver({ type: 'xstate.done.actor.requestAccounts', output: [accountA] });
      // The wallet added the chain but stayed on chain 1: the switch is asked again, and fails the same way.
      await deliver({ type: 'xstate.done.actor.readChainId', output: '0x1' });
      expect(harness.actor.getSnapshot().value).toBe('switchingChain');
      await deliver({ type: 'xstate.error.actor.switchChain', error });
      const snapshot = harness.actor.getSnapshot();
      expect(snapshot.value).toBe('active');
      expect(snapshot.context).toMatchObject({ chainId: 1, chainAdded: true, error: { name: 'UnknownWalletError', code: -32603 } });
    } finally {
      harness.stop();
    }
  });

  it('behavior: a wallet that cannot switch waits for the member, and carries on at their chainChanged', async () => {
    const harness = startHarness(walletModel);
    const deliver = (event: ModelEvent) => harness.deliver(event);
    try {
      await reachRequest(deliver, 'wallet_switchEthereumChain');
      await deliver({ type: 'xstate.error.actor.switchChain', error: toErrorInfo(toWalletError({ code: 4200, message: 'x' })) });
      expect(harness.actor.getSnapshot().value).toBe('switchingManually');
      await deliver({ type: 'provider.chainChanged', chainId: '0x89' });
      expect(harness.actor.getSnapshot()).toMatchObject({ value: 'switchingManually', context: { chainId: 137 } });
      await deliver({ type: 'provider.chainChanged', chainId: '0x38' });
      expect(harness.actor.getSnapshot()).toMatchObject({ value: 'active', context: { chainId: 56, accounts: [accountA], error: null } });
    } finally {
      harness.stop();
    }
  });
});
