import { describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import { WalletErrorNames } from '../../machines/shared/errorNames';
import type { Eip1193Provider } from '../wallet/types';
import { provideWalletMachine } from './walletActors';

/** A wallet that refuses every request as a member's "reject" does (EIP-1193 4001). */
const refusingWallet: Eip1193Provider = {
  request: () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })),
  on: () => undefined,
  removeListener: () => undefined,
};

function connect(found: Awaited<ReturnType<Parameters<typeof provideWalletMachine>[0]['loadProviders']>>) {
  const logger = { debug: vi.fn(), warn: vi.fn() };
  const clock = new SimulatedClock();
  const { machine } = provideWalletMachine({ loadProviders: async () => found, watchProviders: () => () => undefined, logger });
  const wallet = createActor(machine, { clock }).start();
  wallet.send({ type: 'user.connect' });
  return { wallet, clock, logger };
}

describe('wallet actors: what is logged', () => {
  it("behavior: no wallet in the page ('Phantom not installed') is logged at debug level, not as a warning", async () => {
    const { wallet, clock, logger } = connect([]);
    await waitFor(wallet, (snapshot) => snapshot.matches({ activating: 'searching' }));
    clock.increment(3_000);
    const snapshot = await waitFor(wallet, (current) => current.matches({ idle: 'noWallet' }));
    expect(snapshot.context.error?.name).toBe(WalletErrorNames.providerNotFound);
    expect(logger.debug).toHaveBeenCalledWith('wallet:', snapshot.context.error);
    expect(logger.warn).not.toHaveBeenCalled();
    wallet.stop();
  });

  it('behavior: a wallet that refuses the connection is a warning', async () => {
    const { wallet, logger } = connect([{ id: 'injected', name: 'Injected', provider: refusingWallet }]);
    const snapshot = await waitFor(wallet, (current) => current.matches('idle') && current.context.error !== null);
    expect(logger.warn).toHaveBeenCalledWith('wallet:', snapshot.context.error);
    wallet.stop();
  });
});
