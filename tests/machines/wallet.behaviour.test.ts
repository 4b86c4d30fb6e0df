/**
 * Wallet behaviour the /login page cannot produce, checked on the machine with fake actors
 * (scripts/machineGraph/pathWalker.ts). The page always sends the chain params of app config with user.connect, so
 * a 4902 without params (ChainParamsMissingError) can only come from another caller of the machine.
 */
import { describe, expect, it } from 'vitest';
import type { WalletContext } from '../../machines/wallet/walletMachine';
import englishCommon from '../../locales/en/common.json';
import type { ModelEvent } from '../../scripts/machineGraph/modelPaths';
import { startHarness } from '../../scripts/machineGraph/pathWalker';
import { accountA, walletModel } from '../../scripts/machineGraph/wallet.model';

describe('wallet machine: 4902 without chain params', () => {
  it('behavior: keeps the connection on its chain with ChainParamsMissingError and never adds the chain', async () => {
    const harness = startHarness(walletModel);
    const deliver = (event: ModelEvent) => harness.deliver(event);
    try {
      await deliver({ type: 'user.connect', chainId: 56 });
      await deliver({ type: 'xstate.done.actor.findProviders', output: [{ id: 'io.metamask', name: 'MetaMask' }] });
      await deliver({ type: 'xstate.done.actor.requestAccounts', output: [accountA] });
      await deliver({ type: 'xstate.done.actor.readChainId', output: '0x1' });
      expect(harness.actor.getSnapshot().value).toBe('switchingChain');

      await deliver({ type: 'xstate.error.actor.switchChain', error: { name: 'UnrecognizedChainError', code: 4902 } });
      const snapshot = harness.actor.getSnapshot() as { value: unknown; context: WalletContext };
      expect(snapshot.value).toBe('active');
      expect(snapshot.context).toMatchObject({ chainId: 1, accounts: [accountA], chainParams: null, chainAdded: false });
      expect(snapshot.context.error).toEqual({ name: 'ChainParamsMissingError' });
      expect(harness.actor.getSnapshot().children).not.toHaveProperty('addChain');
    } finally {
      harness.stop();
    }
  });

  it('behavior: the member reads why the chain cannot be added', () => {
    expect(englishCommon.wallet.errors.ChainParamsMissingError).toBe(
      'Your wallet does not have this network and it cannot be added automatically right now.',
    );
  });
});

describe('wallet machine: the wallet remembered among several', () => {
  const metaMask = { id: 'io.metamask', name: 'MetaMask' };
  const rabby = { id: 'io.rabby', name: 'Rabby' };

  it('behavior: reads the remembered one without a prompt when it is among them', async () => {
    const harness = startHarness(walletModel);
    const deliver = (event: ModelEvent) => harness.deliver(event);
    try {
      await deliver({ type: 'app.connectEagerly', providerId: rabby.id });
      await deliver({ type: 'xstate.done.actor.findProviders', output: [metaMask, rabby] });
      const snapshot = harness.actor.getSnapshot() as { value: unknown; context: WalletContext };
      expect(snapshot.value).toEqual({ activating: 'readingAccounts' });
      expect(snapshot.context).toMatchObject({ mode: 'eager', providerId: rabby.id, rememberedProviderId: rabby.id });
    } finally {
      harness.stop();
    }
  });

  it('behavior: stays quiet when the remembered one is gone and several others are there', async () => {
    const harness = startHarness(walletModel);
    const deliver = (event: ModelEvent) => harness.deliver(event);
    try {
      await deliver({ type: 'app.connectEagerly', providerId: 'io.uninstalled' });
      await deliver({ type: 'xstate.done.actor.findProviders', output: [metaMask, rabby] });
      const snapshot = harness.actor.getSnapshot() as { value: unknown; context: WalletContext };
      expect(snapshot.value).toEqual({ idle: 'ready' });
      expect(snapshot.context).toMatchObject({ providerId: null, error: null });
    } finally {
      harness.stop();
    }
  });
});
