/**
 * The top-up sheet on /me through the rendered page, with the connected wallet a fake EIP-1193 provider and the API a
 * fake fetch: the token balance read with eth_call, the amount checked against it, the transfer the wallet is asked
 * to send (to the token, transfer(treasury, amount) in the token's units), the blocks on top, credited; a refusal in
 * the wallet; a pending top-up kept in storage and resumed at the next opening; no Top up without a token.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { decodeFunctionData, encodeAbiParameters, erc20Abi, parseUnits, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { PENDING_TOP_UP_KEY, STORAGE_KEYS } from '../../src/storage/keys';
import { accountA } from '../../scripts/machineGraph/wallet.model';
import { testDappParam, testMeInfo } from '../support/fakeApi';
import { renderApp } from './support/renderApp';

const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const treasury = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const hash: Hex = `0x${'c3'.repeat(32)}`;
const withToken = { ...testDappParam, token: { address: token, symbol: 'dUSD', decimals: 18 }, treasury, confirmations: 2, chain: { ...testDappParam.chain, blockExplorerUrls: ['https://explorer.example'] } };
const signedIn = { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(testMeInfo()) };
const uint = (value: bigint) => encodeAbiParameters([{ type: 'uint256' }], [value]);

type RenderedApp = Awaited<ReturnType<typeof renderApp>>;

/** /me with the sheet open; `prepare` scripts the wallet and the API before the member connects the wallet. */
async function openSheet(prepare: (app: RenderedApp) => void, stored: Record<string, string> = signedIn): Promise<RenderedApp> {
  const app = await renderApp({
    path: '/me?sheet=topUp',
    stored,
    connectEagerly: true,
    api: (api) => api.answer('dappParam', { code: 0, result: withToken }),
  });
  // The wallet holds 120.5 dUSD (18 decimals).
  app.provider.respond('eth_call', uint(parseUnits('120.5', 18)));
  prepare(app);
  // The page asked for no accounts yet: the sheet asks the member to connect, and the wallet machine does it.
  const sheet = await screen.findByRole('dialog', { name: 'Top up credit' });
  await userEvent.click(await within(sheet).findByRole('button', { name: 'Connect wallet' }));
  return app;
}

describe('/me?sheet=topUp', () => {
  it('reads the wallet balance, checks the amount, sends the transfer to the treasury and follows it until credited', async () => {
    const app = await openSheet((opened) => {
      opened.provider.respond('eth_sendTransaction', hash);
      opened.api.answer('topUp', { code: 0, result: { txHash: hash, status: 'credited', confirmations: 2, required: 2, amount: '25.5' } });
    });
    expect(await screen.findByRole('heading', { name: 'Top up credit' })).toBeTruthy();
    const amount = await screen.findByLabelText('Amount (dUSD)');
    expect(screen.getByText('dUSD in your wallet')).toBeTruthy();
    const submit = screen.getByRole('button', { name: 'Top up from wallet' });
    expect(submit.hasAttribute('disabled')).toBe(true);
    await userEvent.type(amount, '200');
    expect(await screen.findByText('This is more than the 120.50 dUSD in your wallet.')).toBeTruthy();
    expect(submit.hasAttribute('disabled')).toBe(true);
    await userEvent.clear(amount);
    await userEvent.type(amount, '25.5');
    await userEvent.click(screen.getByRole('button', { name: 'Top up from wallet' }));
    expect(await screen.findByText('Credit topped up')).toBeTruthy();
    const link = screen.getByRole('link', { name: /0xc3c3c3c3/ });
    expect(link.getAttribute('href')).toBe(`https://explorer.example/tx/${hash}`);
    // What the wallet was asked to send: transfer(treasury, 25.5 dUSD) to the token.
    const sent = app.provider.requests.filter((request) => request.method === 'eth_sendTransaction').map((request) => (request.params as [{ to: string; data: Hex; from: string }])[0]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to.toLowerCase()).toBe(token.toLowerCase());
    expect(sent[0]?.from.toLowerCase()).toBe(accountA.toLowerCase());
    expect(decodeFunctionData({ abi: erc20Abi, data: sent[0]?.data ?? '0x' })).toEqual({ functionName: 'transfer', args: [treasury, parseUnits('25.5', 18)] });
    // Kept while it was followed, gone once credited.
    expect(app.actors.storage.readJson(PENDING_TOP_UP_KEY)).toBeUndefined();
  });

  it('shows the blocks on top while confirming, and keeps the hash for a reload', async () => {
    const app = await openSheet((opened) => {
      opened.provider.respond('eth_sendTransaction', hash);
      opened.api.answer('topUp', { code: 0, result: { txHash: hash, status: 'confirming', confirmations: 1, required: 2, amount: '10' } });
    });
    await userEvent.type(await screen.findByLabelText('Amount (dUSD)'), '10');
    await userEvent.click(screen.getByRole('button', { name: 'Top up from wallet' }));
    expect(await screen.findByText('Confirming: 1 of 2 blocks')).toBeTruthy();
    expect(app.actors.storage.readJson(PENDING_TOP_UP_KEY)).toEqual({ txHash: hash, address: accountA });
  });

  it('resumes a top-up kept in storage: straight to its confirmations, then credited', async () => {
    const app = await openSheet(
      (opened) => opened.api.answer('topUp', { code: 0, result: { txHash: hash, status: 'credited', confirmations: 2, required: 2, amount: '7' } }),
      { ...signedIn, [PENDING_TOP_UP_KEY]: JSON.stringify({ txHash: hash, address: accountA }) },
    );
    expect(await screen.findByText('Credit topped up')).toBeTruthy();
    expect(app.provider.methods()).not.toContain('eth_sendTransaction');
    expect(app.actors.storage.readJson(PENDING_TOP_UP_KEY)).toBeUndefined();
  });

  it('shows a refusal in the wallet (4001) on the form, with the amount kept', async () => {
    await openSheet((opened) => opened.provider.fail('eth_sendTransaction', { code: 4001, message: 'User rejected the request.' }));
    const amount = await screen.findByLabelText('Amount (dUSD)');
    await userEvent.type(amount, '5');
    await userEvent.click(screen.getByRole('button', { name: 'Top up from wallet' }));
    await waitFor(() => expect(screen.getByLabelText('Amount (dUSD)')).toBeTruthy());
    expect(await screen.findByText('You cancelled the request in your wallet.')).toBeTruthy();
    expect((screen.getByLabelText('Amount (dUSD)') as HTMLInputElement).value).toBe('5');
  });

  it.each([
    [{ code: 4100, message: 'The requested account and/or method has not been authorized by the user.' }, 'Your wallet has not allowed this site to use the account. Connect again and try again.'],
    [{ code: -32603, message: 'execution reverted: ERC20: transfer amount exceeds balance' }, 'Not enough of the token, or of the network coin for the fee, in your wallet.'],
  ])('shows the transfer refused with %o as its own error on the form', async (answer, text) => {
    await openSheet((opened) => opened.provider.fail('eth_sendTransaction', answer));
    await userEvent.type(await screen.findByLabelText('Amount (dUSD)'), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Top up from wallet' }));
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('shows the token and the treasury linked to the explorer, and adds the token to the wallet: refused, then listed', async () => {
    const app = await openSheet((opened) => opened.provider.fail('wallet_watchAsset', { code: 4001, message: 'User rejected the request.' }, { once: true }));
    const part = await screen.findByRole('region', { name: 'dUSD in your wallet' });
    expect(within(part).getByRole('link', { name: /dUSD contract/ }).getAttribute('href')).toBe(`https://explorer.example/address/${token}`);
    expect(within(part).getByRole('link', { name: /Treasury/ }).getAttribute('href')).toBe(`https://explorer.example/address/${treasury}`);
    await userEvent.click(within(part).getByRole('button', { name: 'Add dUSD to wallet' }));
    expect(await within(part).findByText("dUSD was not added: the wallet's prompt was declined. You can try again.")).toBeTruthy();
    app.provider.respond('wallet_watchAsset', true);
    await userEvent.click(within(part).getByRole('button', { name: 'Add dUSD to wallet' }));
    expect(await within(part).findByRole('status')).toHaveProperty('textContent', 'dUSD is listed in your wallet.');
    expect(within(part).queryByRole('button')).toBeNull();
    const asked = app.provider.requests.filter((request) => request.method === 'wallet_watchAsset').map((request) => request.params);
    expect(asked).toEqual([0, 1].map(() => ({ type: 'ERC20', options: { address: token, symbol: 'dUSD', decimals: 18 } })));
  });

  it('says so when the wallet cannot add tokens (4200), and the page carries on', async () => {
    await openSheet((opened) => opened.provider.fail('wallet_watchAsset', { code: 4200, message: 'The Provider does not support the requested method.' }));
    const part = await screen.findByRole('region', { name: 'dUSD in your wallet' });
    await userEvent.click(within(part).getByRole('button', { name: 'Add dUSD to wallet' }));
    expect(await within(part).findByText('This wallet cannot add tokens for the app: add dUSD by hand with the contract address above.')).toBeTruthy();
    expect(within(part).queryByRole('button')).toBeNull();
    expect(screen.getByRole('button', { name: 'Top up from wallet' })).toBeTruthy();
  });

  it('offers no top-up where the server names no token', async () => {
    await renderApp({ path: '/me', stored: signedIn });
    expect(await screen.findByRole('button', { name: 'Withdraw' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Top up' })).toBeNull();
  });

  it('offers a top-up where a settlement is short of credit, and opens the sheet over /me', async () => {
    const app = await renderApp({
      path: '/buy/settlement/longjing-tea',
      stored: signedIn,
      api: (api) => {
        api.answer('dappParam', { code: 0, result: withToken });
        api.answer('goodsDetail', { code: 0, result: { id: 'longjing-tea', name: 'West Lake Longjing tea, 250 g', image: '/media/goods/longjing-tea.svg', price: '88', stock: 10 } });
        api.answer('deliveryList', {
          code: 0,
          result: { list: [{ deliveryId: '1', name: 'Li Lei', phone: '138 0013 8000', region: 'Zhejiang / Hangzhou / Xihu', detail: '100 Wensan Road', isDefault: true }] },
        });
      },
    });
    // 88 against the member's 12.50: short by 75.50.
    await app.user.click(await screen.findByRole('button', { name: 'Top up from wallet' }));
    expect(await screen.findByRole('dialog', { name: 'Top up credit' })).toBeTruthy();
    expect(app.router.state.location.pathname + app.router.state.location.search).toBe('/me?sheet=topUp');
  });
});
