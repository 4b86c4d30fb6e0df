/**
 * What the member sees on /login when the wallet answers badly (docs/architecture.md, "Machines": 4001, -32002 and 4902 are
 * distinct, translated, and the app never sits in activating forever). Each case scripts the fake EIP-1193 wallet
 * and checks the English text on screen, by role and accessible name.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { accountA, bscChainParams } from '../../scripts/machineGraph/wallet.model';
import { renderApp } from './support/renderApp';
import type { RenderAppOptions, RenderedApp } from './support/renderApp';
import { expectAlerts, expectButton, expectNoButton, expectStatus } from './support/screenQueries';

const connectWallet = () => screen.getByRole('button', { name: 'Connect wallet' });
const requestsOf = (app: RenderedApp, method: string) => app.provider.requests.filter((request) => request.method === method);

/** Renders /login and connects once app config is in (the page asks for chain 56 with its params). */
async function connect(options: RenderAppOptions = {}): Promise<RenderedApp> {
  const app = await renderApp({ path: '/login', ...options });
  await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
  await app.user.click(connectWallet());
  return app;
}

/** A wallet that starts on Ethereum (chain 1) and does not know BNB Smart Chain yet. */
const onEthereumOnly: RenderAppOptions = {
  wallets: [{ id: 'io.metamask', name: 'MetaMask', options: { chainId: 1, knownChainIds: [1], grantAccounts: [accountA] } }],
};

describe('/login: bad wallet answers', () => {
  it('behavior: no wallet in the page: the page looks for 3 s, then says "Phantom not installed"', async () => {
    const app = await connect({ discovery: [] });
    await waitFor(() => expectStatus('Looking for your wallet…'));
    expect(screen.getByText('Some wallet apps take a moment to start.')).toBeTruthy();
    expectAlerts([]);
    act(() => app.clock.increment(2_999));
    expectStatus('Looking for your wallet…');
    act(() => app.clock.increment(1));
    await waitFor(() => expectAlerts(["Phantom not installed: no wallet was found. Open this page in your wallet app's browser."]));
    expectButton('Connect wallet');
  });

  it('behavior: a wallet that injects while the page looks is found, and the connect carries on', async () => {
    const app = await connect({ discovery: 'manual' });
    await app.discovery.announce([]);
    await waitFor(() => expectStatus('Looking for your wallet…'));
    await app.discovery.walletArrives();
    await app.discovery.announce(['io.metamask']);
    await waitFor(() => expectButton('Sign in'));
    expect(app.discovery.calls).toBe(2);
    expect(app.discovery.watchers).toBe(0);
    expectAlerts([]);
  });

  it('behavior: a wallet that arrives after "no wallet" turns the screen back into connect', async () => {
    const app = await connect({ discovery: 'manual' });
    await app.discovery.announce([]);
    await waitFor(() => expectStatus('Looking for your wallet…'));
    act(() => app.clock.increment(3_000));
    await waitFor(() => expectAlerts(["Phantom not installed: no wallet was found. Open this page in your wallet app's browser."]));
    await app.discovery.walletArrives();
    await waitFor(() => expectAlerts([]));
    await app.user.click(connectWallet());
    await app.discovery.announce(['io.metamask']);
    await waitFor(() => expectButton('Sign in'));
  });

  it('behavior: -32603 in Chinese to the switch (Trust Wallet) is tried as an unknown chain: added once, then signed in', async () => {
    const app = await renderApp({ path: '/login', ...onEthereumOnly });
    app.provider.fail('wallet_switchEthereumChain', { code: -32603, message: '无法识别的链 ID "0x38"。请先添加该链。' }, { once: true });
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(connectWallet());
    await waitFor(() => expectButton('Sign in'));
    expect(requestsOf(app, 'wallet_addEthereumChain')).toEqual([{ method: 'wallet_addEthereumChain', params: [{ ...bscChainParams, chainId: '0x38' }] }]);
    expectAlerts([]);
  });

  it.each([
    [4200, 'The Provider does not support the requested method.'],
    [-32601, 'Method not found'],
  ])('behavior: %i to the switch (imToken before 2.10) asks the member to switch by hand; chainChanged carries on', async (code, message) => {
    const app = await renderApp({ path: '/login', ...onEthereumOnly });
    app.provider.fail('wallet_switchEthereumChain', { code, message });
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(connectWallet());
    await waitFor(() => expectStatus('Switch to BNB Smart Chain in your wallet'));
    expect(
      screen.getByText('Your wallet cannot switch networks from this page. Open your wallet, choose BNB Smart Chain as its network, then come back: this page carries on by itself.'),
    ).toBeTruthy();
    expectAlerts([]);
    expect(requestsOf(app, 'wallet_addEthereumChain')).toEqual([]);
    await waitFor(() => expect(app.provider.listenerCount('chainChanged')).toBeGreaterThan(0));
    act(() => app.provider.emit('chainChanged', '0x1'));
    expectStatus('Switch to BNB Smart Chain in your wallet');
    act(() => app.provider.emit('chainChanged', '0x38'));
    await waitFor(() => expectButton('Sign in'));
    expect(requestsOf(app, 'wallet_switchEthereumChain')).toHaveLength(1);
  });

  it('behavior: "Not now" leaves the manual switch connected on the wallet\'s network, with the switch offered again', async () => {
    const app = await renderApp({ path: '/login', ...onEthereumOnly });
    app.provider.fail('wallet_switchEthereumChain', { code: 4200, message: 'Unsupported' });
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(connectWallet());
    await app.user.click(await screen.findByRole('button', { name: 'Not now' }));
    await waitFor(() => expectButton('Switch to BNB Smart Chain'));
    expectNoButton('Sign in');
    await app.user.click(screen.getByRole('button', { name: 'Switch to BNB Smart Chain' }));
    await waitFor(() => expectStatus('Switch to BNB Smart Chain in your wallet'));
  });

  it('behavior: 4001 on eth_requestAccounts says the member cancelled, and the page can connect again', async () => {
    const app = await renderApp({ path: '/login' });
    app.provider.fail('eth_requestAccounts', { code: 4001, message: 'User rejected the request.' });
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(connectWallet());
    await waitFor(() => expectAlerts(['You cancelled the request in your wallet.']));
    expectButton('Connect wallet');
    expectNoButton('Sign in');
  });

  it('behavior: -32002 asks the member to open the wallet and never sends eth_requestAccounts twice', async () => {
    const app = await renderApp({ path: '/login' });
    app.provider.fail('eth_requestAccounts', { code: -32002, message: "Request of type 'wallet_requestPermissions' already pending." });
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(connectWallet());
    await waitFor(() => expectStatus('Open your wallet to see the request'));
    expectButton('Cancel');
    expect(requestsOf(app, 'eth_requestAccounts')).toHaveLength(1);

    // The member approves the pending prompt in the wallet: its answer arrives as an event, not as a new request.
    await waitFor(() => expect(app.provider.listenerCount('accountsChanged')).toBeGreaterThan(0));
    act(() => app.provider.emit('accountsChanged', [accountA]));
    await waitFor(() => expectButton('Sign in'));
    expect(requestsOf(app, 'eth_requestAccounts')).toHaveLength(1);
  });

  it('behavior: 4902 adds the chain with {...params, chainId: "0x38"} and retries the activation once', async () => {
    const app = await connect(onEthereumOnly);
    await waitFor(() => expectButton('Sign in'));
    expect(requestsOf(app, 'wallet_addEthereumChain')).toEqual([{ method: 'wallet_addEthereumChain', params: [{ ...bscChainParams, chainId: '0x38' }] }]);
    expect(app.provider.methods()).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'eth_requestAccounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
    ]);
    expect(app.actors.wallet.getSnapshot().context.chainId).toBe(56);
  });

  it('behavior: a wallet that still answers 4902 after the chain was added is asked once, then the page says so', async () => {
    const app = await renderApp({ path: '/login', ...onEthereumOnly });
    app.provider.fail('wallet_switchEthereumChain', { code: 4902, message: 'Unrecognized chain ID "0x38".' });
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(connectWallet());
    await waitFor(() => expectAlerts(['Your wallet does not have this network yet. Please add it.']));
    expectButton('Switch to BNB Smart Chain');
    expect(requestsOf(app, 'wallet_addEthereumChain')).toHaveLength(1);
    expect(requestsOf(app, 'eth_requestAccounts')).toHaveLength(2);
  });

  it('behavior: 4902 sent as -32603 with data.originalError.code 4902 (MetaMask Mobile) adds the chain', async () => {
    const app = await renderApp({ path: '/login', ...onEthereumOnly });
    app.provider.fail(
      'wallet_switchEthereumChain',
      { code: -32603, message: 'Internal JSON-RPC error.', data: { originalError: { code: 4902, message: 'Unrecognized chain ID "0x38".' } } },
      { once: true },
    );
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(connectWallet());
    await waitFor(() => expectButton('Sign in'));
    expect(requestsOf(app, 'wallet_addEthereumChain')).toEqual([{ method: 'wallet_addEthereumChain', params: [{ ...bscChainParams, chainId: '0x38' }] }]);
    expectAlerts([]);
  });

  it('behavior: 4902 sent as -32603 whose message says "Unrecognized chain ID" adds the chain', async () => {
    const app = await renderApp({ path: '/login', ...onEthereumOnly });
    app.provider.fail(
      'wallet_switchEthereumChain',
      { code: -32603, message: 'Unrecognized chain ID "0x38". Try adding the chain using wallet_addEthereumChain first.' },
      { once: true },
    );
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(connectWallet());
    await waitFor(() => expectButton('Sign in'));
    expect(requestsOf(app, 'wallet_addEthereumChain')).toHaveLength(1);
    expectAlerts([]);
  });

  it('behavior: a wallet that never answers gives up after 60 s with a message, back to "Connect wallet"', async () => {
    const app = await renderApp({ path: '/login' });
    app.provider.hang('eth_requestAccounts');
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(connectWallet());
    await waitFor(() => expectStatus('Confirm in your wallet'));
    act(() => app.clock.increment(59_999));
    expectStatus('Confirm in your wallet');
    act(() => app.clock.increment(1));
    await waitFor(() => expectAlerts(['Your wallet did not respond. Please try again.']));
    expectButton('Connect wallet');
    expectNoButton('Cancel');
  });

  it.each([
    ['hex', '0x38'],
    ['number', 56],
    ['decimal string', '56'],
  ])('behavior: eth_chainId as a %s (%j) reads as chain 56: "Sign in" is offered', async (_, chainId) => {
    const app = await renderApp({ path: '/login' });
    app.provider.respond('eth_chainId', chainId);
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(connectWallet());
    await waitFor(() => expectButton('Sign in'));
    expectNoButton('Switch to BNB Smart Chain');
    expect(requestsOf(app, 'wallet_switchEthereumChain')).toEqual([]);
    expect(app.actors.wallet.getSnapshot().context.chainId).toBe(56);
  });

  it.each([
    ['hex', '0x1', '0x38'],
    ['number', 1, 56],
    ['decimal string', '1', '56'],
  ])('behavior: chainChanged as a %s moves the page between "Switch to BNB Smart Chain" and "Sign in"', async (_, other, bsc) => {
    const app = await connect();
    await waitFor(() => expectButton('Sign in'));
    await waitFor(() => expect(app.provider.listenerCount('chainChanged')).toBeGreaterThan(0));
    act(() => app.provider.emit('chainChanged', other));
    await waitFor(() => expectButton('Switch to BNB Smart Chain'));
    expectNoButton('Sign in');
    expect(screen.getByText('Your wallet is on another network. Switch to BNB Smart Chain to sign in.')).toBeTruthy();
    act(() => app.provider.emit('chainChanged', bsc));
    await waitFor(() => expectButton('Sign in'));
    expectNoButton('Switch to BNB Smart Chain');
  });

  it('behavior: a disconnect during the signature prompt signs nothing in and stores nothing', async () => {
    const app = await connect({ holdWalletRequests: ['personal_sign'] });
    await app.user.click(await screen.findByRole('button', { name: 'Sign in' }));
    await waitFor(() => expectStatus('Confirm the signature in your wallet'));
    await app.walletRequests.next('personal_sign');
    await waitFor(() => expect(app.provider.listenerCount('disconnect')).toBeGreaterThan(0));
    act(() => app.provider.emit('disconnect', { code: 4900, message: 'Disconnected' }));
    // The wallet and the sign-in both end on the disconnect; the page says so once.
    await waitFor(() => expectAlerts(['Your wallet disconnected. Please connect again.']));
    expect(app.actors.auth.getSnapshot().context.error).toEqual({ name: 'WalletDisconnectedError' });
    expectButton('Connect wallet');
    expectNoButton('Sign in');
    expect(app.actors.auth.getSnapshot().value).toBe('signedOut');
    expect(app.api.callsTo('memberSignLogin')).toEqual([]);
    for (const key of [STORAGE_KEYS.token, STORAGE_KEYS.tempToken, STORAGE_KEYS.userInfo]) expect(app.storage.entries.has(key)).toBe(false);
  });

  it('behavior: 4001 on the signature prompt says the member cancelled and keeps the wallet connected', async () => {
    const app = await connect();
    app.provider.fail('personal_sign', { code: 4001, message: 'User rejected the request.' });
    await app.user.click(await screen.findByRole('button', { name: 'Sign in' }));
    await waitFor(() => expectAlerts(['You cancelled the request in your wallet.']));
    expectButton('Sign in');
    expect(app.storage.entries.has(STORAGE_KEYS.tempToken)).toBe(false);
  });
});
