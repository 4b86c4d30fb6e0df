/**
 * The test wallet itself, in Chromium on a blank page (no server): what the journeys rely on must hold, or a
 * journey could pass against a wallet no real one resembles.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { verifyMessage } from 'viem';
import { newPhoneContext, releaseWorkerBrowser, workerBrowser } from '../browser';
import { anvilKeys } from './anvilKeys';
import { TestWallet } from './testWallet';
import type { TestWalletOptions } from './testWallet';

const origin = 'http://wallet.test';
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await workerBrowser();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});
afterAll(async () => {
  await releaseWorkerBrowser(browser);
});

async function blankPage(options: TestWalletOptions = {}): Promise<{ page: Page; wallet: TestWallet }> {
  context = await newPhoneContext(browser, { baseURL: origin });
  await context.route(`${origin}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }));
  // Added before the wallet so it runs first and also sees the announcement the wallet makes at start.
  await context.addInitScript(() => {
    const seen: unknown[] = [];
    window.addEventListener('eip6963:announceProvider', (event) => {
      const detail: unknown = Reflect.get(event, 'detail');
      seen.push(detail);
    });
    Reflect.set(window, '__announced', seen);
  });
  const wallet = await TestWallet.install(context, options);
  const page = await context.newPage();
  await page.goto('/');
  return { page, wallet };
}

/** Calls the announced provider's request() in the page; a thrown error comes back as { code, message, isError }. */
function request(page: Page, method: string, params?: unknown): Promise<unknown> {
  return page.evaluate(
    async ({ method: name, params: value }) => {
      const [first] = Reflect.get(window, '__announced') as Array<{ provider: { request(args: unknown): Promise<unknown> } }>;
      if (!first) throw new Error('no wallet announced');
      try {
        return await first.provider.request(value === undefined ? { method: name } : { method: name, params: value });
      } catch (error) {
        const { code, message } = error as { code?: unknown; message?: unknown };
        return { thrown: true, isError: error instanceof Error, code, message };
      }
    },
    { method, params },
  );
}

describe('test wallet', () => {
  it('announces itself over EIP-6963 at start and on request, and sets window.ethereum only when asked', async () => {
    const { page } = await blankPage();
    const announced = () =>
      page.evaluate(() =>
        (Reflect.get(window, '__announced') as Array<{ info: { rdns: string; name: string; uuid: string } }>).map(({ info }) => info),
      );
    expect(await announced()).toEqual([{ rdns: 'dev.member.testwallet', name: 'Test Wallet', uuid: expect.any(String), icon: expect.any(String) }]);
    await page.evaluate(() => window.dispatchEvent(new Event('eip6963:requestProvider')));
    expect(await announced()).toHaveLength(2);
    expect(await page.evaluate(() => 'ethereum' in window)).toBe(false);

    const withEthereum = await blankPage({ setWindowEthereum: true });
    expect(
      await withEthereum.page.evaluate(() => {
        const [first] = Reflect.get(window, '__announced') as Array<{ provider: unknown }>;
        return Reflect.get(window, 'ethereum') === first?.provider;
      }),
    ).toBe(true);
  });

  it('answers like a wallet: permissions, 4902, chain added and switched, coded rejections, unsupported methods', async () => {
    const { page, wallet } = await blankPage({ chainId: 1, privateKeys: [anvilKeys[0], anvilKeys[1]] });
    expect(await request(page, 'eth_chainId')).toBe('0x1');
    expect(await request(page, 'eth_accounts')).toEqual([]);
    expect(await request(page, 'personal_sign', ['0x6869', wallet.address])).toMatchObject({ thrown: true, isError: true, code: 4100 });
    expect(await request(page, 'eth_requestAccounts')).toEqual([wallet.address]);
    expect(await request(page, 'eth_accounts')).toEqual([wallet.address]);

    expect(await request(page, 'wallet_switchEthereumChain', [{ chainId: '0x38' }])).toMatchObject({ thrown: true, code: 4902 });
    const bad = { chainId: '0x38', chainName: 'BNB', nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 }, rpcUrls: ['http://x'] };
    expect(await request(page, 'wallet_addEthereumChain', [bad])).toMatchObject({ thrown: true, code: -32602 });
    const good = { ...bad, rpcUrls: ['https://bsc-dataseed.bnbchain.org'] };
    expect(await request(page, 'wallet_addEthereumChain', [good])).toBeNull();
    expect(wallet.chainId).toBe(56);
    expect(await request(page, 'eth_chainId')).toBe('0x38');
    expect(await request(page, 'wallet_switchEthereumChain', [{ chainId: '0x1' }])).toBeNull();

    wallet.rejectNext('eth_requestAccounts');
    expect(await request(page, 'eth_requestAccounts')).toEqual({ thrown: true, isError: true, code: 4001, message: 'User rejected the request.' });
    expect(await request(page, 'eth_requestAccounts')).toEqual([wallet.address]);
    expect(await request(page, 'eth_sendTransaction', [{}])).toMatchObject({ thrown: true, code: 4200 });
    expect(wallet.requests.filter((recorded) => !recorded.answer.ok).map((recorded) => recorded.method)).toEqual([
      'personal_sign',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'eth_requestAccounts',
      'eth_sendTransaction',
    ]);
    expect(wallet.addedChains).toEqual([good]);
  });

  it('signs the decoded text with the real key, and emits accountsChanged, chainChanged and disconnect', async () => {
    const { page, wallet } = await blankPage({ chainId: 1, privateKeys: [anvilKeys[0], anvilKeys[1]] });
    await request(page, 'eth_requestAccounts');
    const text = 'example.test wants you to sign in\nNonce: 1';
    const hex = `0x${Buffer.from(text, 'utf8').toString('hex')}`;
    const signature = await request(page, 'personal_sign', [hex, wallet.address.toLowerCase()]);
    expect(wallet.signedMessages).toEqual([{ address: wallet.address, message: text, signature }]);
    expect(await verifyMessage({ address: wallet.address, message: text, signature: signature as `0x${string}` })).toBe(true);

    await page.evaluate(() => {
      const [first] = Reflect.get(window, '__announced') as Array<{ provider: { on(event: string, listener: (value: unknown) => void): void } }>;
      const events: unknown[] = [];
      for (const name of ['accountsChanged', 'chainChanged', 'disconnect']) first?.provider.on(name, (value) => events.push([name, value]));
      Reflect.set(window, '__events', events);
    });
    const first = wallet.address;
    await wallet.switchAccount(1);
    await wallet.switchChain(56);
    await request(page, 'wallet_switchEthereumChain', [{ chainId: '0x1' }]);
    await wallet.disconnect();
    expect(await page.evaluate(() => Reflect.get(window, '__events') as unknown)).toEqual([
      ['accountsChanged', [wallet.address]],
      ['chainChanged', '0x38'],
      ['chainChanged', '0x1'],
      ['disconnect', { code: 4900, message: 'The Provider is disconnected from all chains.' }],
    ]);
    expect(wallet.address).not.toBe(first);
    expect(await request(page, 'eth_accounts')).toEqual([]);
  });
});
