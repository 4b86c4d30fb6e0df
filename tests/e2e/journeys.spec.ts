/**
 * Member journeys in Debian Chromium against the real server (docs/architecture.md, "Testing in a real browser"): the
 * invite link, sign-in with the chain added by the app, a reload, an account switch in the wallet (also after a
 * reload on /register, with only a temporary token), a refused signature, a browser without wallet, and a browser
 * in a language the app does not have.
 */
import { describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { screenshot } from './support/browser';
import { readSession, setupJourneys, waitForAppConfig } from './support/journey';
import { anvilKeys } from './support/wallet/anvilKeys';
import type { TestWallet } from './support/wallet/testWallet';

// On PGlite, the embedded database of `npm start`, also when the run has PostgreSQL (the other files use it there).
const e2e = setupJourneys({ embedded: true });

/** BNB Smart Chain as the seeded app config gives it (server/seed/content.ts), with chainId in hex. */
const bnbChainParameter = {
  chainId: '0x38',
  chainName: 'BNB Smart Chain',
  nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
  rpcUrls: ['https://bsc-dataseed.bnbchain.org'],
  blockExplorerUrls: ['https://bscscan.com'],
};

function requireWallet(wallet: TestWallet | null): TestWallet {
  if (!wallet) throw new Error('this journey needs the test wallet');
  return wallet;
}

describe('member journeys', () => {
  it('first visit through the invite link: the app adds BNB Smart Chain, the member signs in bound to DEMO2026', async () => {
    const opened = await e2e.open({ wallet: { chainId: 1, privateKeys: [anvilKeys[0]] } });
    const { page, problems } = opened;
    const wallet = requireWallet(opened.wallet);
    expect(wallet.knowsChain(56)).toBe(false);

    await page.goto('/login/DEMO2026');
    await page.getByText('Invited with code DEMO2026').waitFor();
    await waitForAppConfig(page);
    await page.getByRole('button', { name: 'Connect wallet' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'login');
    await page.getByRole('button', { name: 'Connect wallet' }).click();

    const signIn = page.getByRole('button', { name: 'Sign in' });
    await signIn.waitFor();
    // 4902 on the switch, then the chain is added with the full parameters and the activation retried.
    const [firstSwitch] = wallet.requestsOf('wallet_switchEthereumChain');
    expect(firstSwitch?.params).toEqual([{ chainId: '0x38' }]);
    expect(firstSwitch?.answer).toMatchObject({ ok: false, error: { code: 4902 } });
    expect(wallet.requestsOf('wallet_addEthereumChain').map((request) => request.params)).toEqual([[bnbChainParameter]]);
    expect(wallet.addedChains).toEqual([bnbChainParameter]);
    expect(wallet.chainId).toBe(56);
    expect(wallet.requests.map((request) => request.method)).toEqual([
      'eth_accounts', // eager connect at start: not connected yet, so no account and no prompt
      'eth_requestAccounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'eth_requestAccounts',
      'eth_chainId',
    ]);
    await screenshot(page, 'login-connected');

    const signLogin = page.waitForRequest((request) => request.url().endsWith('/api/member/memberSignLogin'));
    await signIn.click();
    const body: unknown = (await signLogin).postDataJSON();
    expect(body).toMatchObject({ inviteCode: 'DEMO2026', signature: wallet.signedMessages[0]?.signature });

    // The EIP-4361 message names this origin, the member's address and the app's chain.
    const host = new URL(e2e.server.url).host;
    const signed = wallet.signedMessages[0]?.message ?? '';
    expect(signed.startsWith(`${host} wants you to sign in with your Ethereum account:\n${wallet.address}\n`)).toBe(true);
    expect(signed).toContain(`\nURI: ${e2e.server.url}\n`);
    expect(signed).toContain('\nChain ID: 56\n');

    await page.waitForURL('**/home');
    await page.getByText('Welcome back').waitFor();
    await screenshot(page, 'home');
    expect(JSON.parse((await readSession(page)).TOKEN_STORE ?? 'null')).toEqual(expect.any(String));

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Me', exact: true }).click();
    await page.waitForURL('**/me');
    const address = page.getByTestId('me-address');
    await expect.poll(async () => address.textContent(), { timeout: 10_000 }).not.toBe('—');
    expect(getAddress((await address.textContent()) ?? '')).toBe(wallet.address);
    const inviteCode = (await page.getByTestId('me-invite-code').textContent()) ?? '';
    expect(inviteCode).toMatch(/^[A-Z0-9]{8}$/);
    expect(inviteCode).not.toBe('DEMO2026');
    expect(problems.errors).toEqual([]);
  });

  // Signed in over HTTP, as the first journey leaves the member (the session stored, the site connected, the app's chain).
  it('a reload keeps the member signed in', async () => {
    const opened = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[3]] }, signedIn: {} });
    const { page, problems } = opened;
    const wallet = requireWallet(opened.wallet);
    await page.goto('/me');
    await expect.poll(async () => page.getByTestId('me-address').textContent(), { timeout: 10_000 }).not.toBe('—');

    await page.reload();
    await page.getByTestId('me-address').waitFor();
    await expect.poll(async () => page.getByTestId('me-address').textContent(), { timeout: 10_000 }).not.toBe('—');
    expect(getAddress((await page.getByTestId('me-address').textContent()) ?? '')).toBe(wallet.address);
    expect(new URL(page.url()).pathname).toBe('/me');
    expect((await readSession(page)).TOKEN_STORE).not.toBeNull();
    // The eager connect after the reload found the same account without asking the member again.
    expect(wallet.requestsOf('eth_accounts').at(-1)?.answer).toEqual({ ok: true, result: [wallet.address] });
    expect(problems.errors).toEqual([]);
  });

  it('switching the account in the wallet signs the member out', async () => {
    const opened = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[4], anvilKeys[5]] }, signedIn: {} });
    const { page, problems } = opened;
    const wallet = requireWallet(opened.wallet);
    await page.goto('/home');
    await page.getByText('Welcome back').waitFor();
    expect((await readSession(page)).TOKEN_STORE).not.toBeNull();
    // The app listens to the wallet's events once its reconnect at start is through: an accountsChanged naming the
    // same account reaches it and changes nothing.
    await expect.poll(() => wallet.emit('accountsChanged', [wallet.address])).toBeGreaterThan(0);

    const revoke = page.waitForRequest((request) => request.url().endsWith('/api/member/logout'));
    await wallet.switchAccount(1);
    await page.waitForURL((url) => url.pathname === '/login');
    await revoke;
    expect(await readSession(page)).toEqual({ TOKEN_STORE: null, TEMP_TOKEN_STORE: null, USER_INFO_STORE: null });
    expect(problems.errors).toEqual([]);
  });

  it('reload then switch account while on /register: the temporary session of the first account ends', async () => {
    const opened = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[7], anvilKeys[8]] } });
    const { page, problems } = opened;
    const wallet = requireWallet(opened.wallet);
    const firstAddress = wallet.address;
    await page.goto('/login');
    await waitForAppConfig(page);
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    // No invite code: the server answers a temporary token, and the member must bind a recommender first.
    await page.waitForURL((url) => url.pathname === '/register');
    const stored = await readSession(page);
    expect(stored.TOKEN_STORE).toBeNull();
    expect(JSON.parse(stored.TEMP_TOKEN_STORE ?? 'null')).toEqual(expect.any(String));

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Bind a recommender' }).waitFor();
    // The eager connect after the reload found the first account again: the session is still its own.
    await expect.poll(() => wallet.requestsOf('eth_accounts').at(-1)?.answer).toEqual({ ok: true, result: [firstAddress] });
    expect(new URL(page.url()).pathname).toBe('/register');
    // The app listens to the wallet's events once the reconnect is through (after eth_chainId too): until then an
    // account switch would go unheard. An accountsChanged naming the same account reaches it and changes nothing.
    await expect.poll(() => wallet.emit('accountsChanged', [firstAddress])).toBeGreaterThan(0);

    const revoke = page.waitForRequest((request) => request.url().endsWith('/api/member/logout'));
    await wallet.switchAccount(1);
    expect(wallet.address).not.toBe(firstAddress);
    // Signed out: the token is revoked on the server and the member is back on /login.
    await Promise.all([revoke, page.waitForURL((url) => url.pathname === '/login')]);
    expect(await readSession(page)).toEqual({ TOKEN_STORE: null, TEMP_TOKEN_STORE: null, USER_INFO_STORE: null });
    expect(await page.evaluate(() => window.localStorage.getItem('SESSION_ADDRESS'))).toBeNull();
    expect(problems.errors).toEqual([]);
  });

  it('a refused signature shows the translated message and stores nothing', async () => {
    const opened = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[6]] } });
    const { page, problems } = opened;
    const wallet = requireWallet(opened.wallet);
    wallet.rejectNext('personal_sign');
    await page.goto('/login/DEMO2026');
    await waitForAppConfig(page);
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('alert').filter({ hasText: 'You cancelled the request in your wallet.' }).waitFor();
    expect(wallet.requestsOf('personal_sign').map((request) => request.answer)).toEqual([
      { ok: false, error: { code: 4001, message: 'User rejected the request.' } },
    ]);
    const session = await readSession(page);
    expect(session.TOKEN_STORE).toBeNull();
    expect(session.TEMP_TOKEN_STORE).toBeNull();
    expect(new URL(page.url()).pathname).toBe('/login/DEMO2026');
    expect(problems.errors).toEqual([]);
  });

  it('without a wallet, the page looks for one for a moment, says none was found, and Connect looks again', async () => {
    const { page, problems } = await e2e.open({ wallet: null });
    // Counts discovery rounds, so the test sees that the click itself looked for a wallet.
    await page.addInitScript(() => {
      let rounds = 0;
      window.addEventListener('eip6963:requestProvider', () => (rounds += 1));
      Object.defineProperty(window, '__discoveryRounds', { get: () => rounds });
    });
    // The page's timers run on Playwright's clock: each search's walletSearchTimeout is skipped, not waited out.
    await page.clock.install();
    await page.goto('/login');
    await waitForAppConfig(page);
    const noWallet = page.getByRole('alert').filter({ hasText: "Phantom not installed: no wallet was found. Open this page in your wallet app's browser." });
    // The eager connect at start looks for walletSearchTimeout (a wallet may inject late), then says none came.
    await page.getByText('Some wallet apps take a moment to start.').waitFor();
    await page.clock.fastForward(3_000);
    await noWallet.waitFor();
    const roundsBefore = await page.evaluate(() => Reflect.get(window, '__discoveryRounds') as number);
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByText('Some wallet apps take a moment to start.').waitFor();
    await page.clock.fastForward(3_000);
    await noWallet.waitFor();
    expect(await page.evaluate(() => Reflect.get(window, '__discoveryRounds') as number)).toBeGreaterThan(roundsBefore);
    expect(problems.errors).toEqual([]);
  });

  it('a browser in an unsupported language gets the Chinese texts', async () => {
    const { page, problems } = await e2e.open({ locale: 'fr-FR' });
    await page.goto('/login');
    expect(await page.evaluate(() => navigator.language)).toBe('fr-FR');
    await page.getByRole('button', { name: '连接钱包' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh');
    expect(await page.evaluate(() => window.localStorage.getItem('i18nextLng'))).toBe('zh');
    await screenshot(page, 'login-zh');
    expect(problems.errors).toEqual([]);
  });
});
