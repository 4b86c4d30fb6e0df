/**
 * The sign-in domain is the server's, never the caller's (ADR 0007): a message for another domain is refused with
 * 1005 however that domain reaches the server (Host, X-Forwarded-Host with or without TRUST_PROXY), and dappParam
 * never echoes a foreign Host.
 */
import { networkInterfaces } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { PrivateKeyAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { expectNoDbChange, expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { accounts, buildMessage, envelope, requestNonce, TEST_DOMAIN, type MessageOverrides } from './support/memberSignIn';

describeWithDatabases('sign-in sites', (ctx) => {
  /** Signs a fresh message for `site` and posts it with the given headers. */
  async function signInAt(app: FastifyInstance, site: MessageOverrides, headers: Record<string, string>, account: PrivateKeyAccount = accounts.alice) {
    const nonce = await requestNonce(app, account.address);
    const message = buildMessage(account, nonce, ctx.clock.now(), site);
    const signature = await account.signMessage({ message });
    return app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers, payload: { message, signature } });
  }

  const evil = { domain: 'evil.test', uri: 'https://evil.test/login' };
  const ours = { domain: TEST_DOMAIN, uri: `https://${TEST_DOMAIN}/login` };

  async function siweDomainAt(app: FastifyInstance, headers: Record<string, string>): Promise<string | undefined> {
    const response = await app.inject({ method: 'GET', url: '/api/dapp/dappParam', headers });
    return envelope<{ siweDomain: string }>(response).result?.siweDomain;
  }

  describe('with SIWE_DOMAIN set', () => {
    it('refuses a message for another domain sent with that domain as Host → 1005, writing nothing after the nonce', async () => {
      const app = await ctx.app({ siweDomain: TEST_DOMAIN });
      const nonce = await requestNonce(app, accounts.alice.address);
      const message = buildMessage(accounts.alice, nonce, ctx.clock.now(), evil);
      const signature = await accounts.alice.signMessage({ message });
      const response = await expectNoDbChange(ctx.db, () =>
        app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers: { host: 'evil.test' }, payload: { message, signature } }),
      );
      expectRefused(response, ApiCode.signatureInvalid);
    });

    it('refuses it sent as X-Forwarded-Host without TRUST_PROXY → 1005', async () => {
      const app = await ctx.app({ siweDomain: TEST_DOMAIN, trustProxy: false });
      expectRefused(await signInAt(app, evil, { host: TEST_DOMAIN, 'x-forwarded-host': 'evil.test' }), ApiCode.signatureInvalid);
    });

    it('refuses it sent as X-Forwarded-Host with TRUST_PROXY → 1005', async () => {
      const app = await ctx.app({ siweDomain: TEST_DOMAIN, trustProxy: true });
      expectRefused(await signInAt(app, evil, { host: '10.0.0.5:8080', 'x-forwarded-host': 'evil.test' }), ApiCode.signatureInvalid);
    });

    it('refuses even a message for our domain when the request came to a Host outside the list → 1005', async () => {
      const app = await ctx.app({ siweDomain: TEST_DOMAIN });
      expectRefused(await signInAt(app, ours, { host: 'evil.test' }), ApiCode.signatureInvalid);
    });

    it('signs in with our domain as Host, or as X-Forwarded-Host behind a trusted proxy', async () => {
      const direct = await ctx.app({ siweDomain: TEST_DOMAIN });
      expect(envelope(await signInAt(direct, ours, { host: TEST_DOMAIN })).code).toBe(0);
      const proxied = await ctx.app({ siweDomain: TEST_DOMAIN, trustProxy: true });
      expect(envelope(await signInAt(proxied, ours, { host: '10.0.0.5:8080', 'x-forwarded-host': TEST_DOMAIN }, accounts.bob)).code).toBe(0);
    });

    it('ignores X-Forwarded-Host without TRUST_PROXY: the Host decides', async () => {
      const app = await ctx.app({ siweDomain: TEST_DOMAIN, trustProxy: false });
      expect(envelope(await signInAt(app, ours, { host: TEST_DOMAIN, 'x-forwarded-host': 'evil.test' })).code).toBe(0);
      expectRefused(await signInAt(app, ours, { host: '10.0.0.5:8080', 'x-forwarded-host': TEST_DOMAIN }, accounts.bob), ApiCode.signatureInvalid);
    });

    it('accepts each of several comma-separated domains, each at its own Host', async () => {
      const app = await ctx.app({ siweDomain: `${TEST_DOMAIN}, alt.member.test:8443` });
      const alt = { domain: 'alt.member.test:8443', uri: 'https://alt.member.test:8443/login' };
      expect(envelope(await signInAt(app, alt, { host: 'alt.member.test:8443' })).code).toBe(0);
      // The domain must be the Host the request came to, not just any listed one.
      expectRefused(await signInAt(app, alt, { host: TEST_DOMAIN }, accounts.bob), ApiCode.signatureInvalid);
    });

    it('dappParam names the first domain for a foreign Host, with or without a proxy, and an allowed Host as it is', async () => {
      const app = await ctx.app({ siweDomain: `${TEST_DOMAIN},alt.member.test:8443` });
      expect(await siweDomainAt(app, { host: 'evil.test' })).toBe(TEST_DOMAIN);
      expect(await siweDomainAt(app, { host: TEST_DOMAIN, 'x-forwarded-host': 'evil.test' })).toBe(TEST_DOMAIN);
      expect(await siweDomainAt(app, { host: 'alt.member.test:8443' })).toBe('alt.member.test:8443');
      const proxied = await ctx.app({ siweDomain: TEST_DOMAIN, trustProxy: true });
      expect(await siweDomainAt(proxied, { host: '10.0.0.5:8080', 'x-forwarded-host': 'evil.test' })).toBe(TEST_DOMAIN);
    });
  });

  describe('with PUBLIC_URL set', () => {
    it('binds the scheme too: an http:// URI for an https:// site → 1005', async () => {
      const app = await ctx.app({ siweDomain: undefined, publicUrl: `https://${TEST_DOMAIN}` });
      expectRefused(await signInAt(app, { ...ours, uri: `http://${TEST_DOMAIN}/login` }, { host: TEST_DOMAIN }), ApiCode.signatureInvalid);
      expect(envelope(await signInAt(app, ours, { host: TEST_DOMAIN }, accounts.bob)).code).toBe(0);
      expect(await siweDomainAt(app, { host: 'evil.test' })).toBe(TEST_DOMAIN);
    });
  });

  describe('without configuration (the embedded start)', () => {
    it('accepts loopback hosts at any port (npm run dev proxies with Host localhost:5173)', async () => {
      const app = await ctx.app({ siweDomain: undefined });
      const dev = { domain: 'localhost:5173', uri: 'http://localhost:5173/login/DEMO2026' };
      expect(envelope(await signInAt(app, dev, { host: 'localhost:5173' })).code).toBe(0);
      expect(await siweDomainAt(app, { host: 'localhost:5173' })).toBe('localhost:5173');
    });

    it('refuses a foreign Host and never announces it', async () => {
      const app = await ctx.app({ siweDomain: undefined });
      expectRefused(await signInAt(app, evil, { host: 'evil.test' }), ApiCode.signatureInvalid);
      expectRefused(await signInAt(app, { domain: 'localhost.evil.test', uri: 'http://localhost.evil.test/' }, { host: 'localhost.evil.test' }), ApiCode.signatureInvalid);
      expect(await siweDomainAt(app, { host: 'evil.test' })).toBe('localhost');
    });

    it('refuses a foreign X-Forwarded-Host behind a trusted proxy', async () => {
      const app = await ctx.app({ siweDomain: undefined, trustProxy: true });
      expectRefused(await signInAt(app, evil, { host: 'localhost:8080', 'x-forwarded-host': 'evil.test' }), ApiCode.signatureInvalid);
      expect(await siweDomainAt(app, { host: 'localhost:8080', 'x-forwarded-host': 'evil.test' })).not.toBe('evil.test');
    });

    it('on 0.0.0.0 accepts every interface address at its port (a phone on the same network)', async () => {
      const app = await ctx.app({ siweDomain: undefined });
      await app.listen({ host: '0.0.0.0', port: 0 });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const ipv4 = Object.values(networkInterfaces())
        .flatMap((list) => list ?? [])
        .filter((info) => info.family === 'IPv4')
        .map((info) => info.address);
      expect(ipv4.length).toBeGreaterThan(0);
      let account = 0;
      for (const ip of ipv4) {
        const host = `${ip}:${port}`;
        const signer = Object.values(accounts)[account++ % 5] ?? accounts.alice;
        const response = await signInAt(app, { domain: host, uri: `http://${host}/login` }, { host }, signer);
        expect(envelope(response).code, host).toBe(0);
        expect(await siweDomainAt(app, { host }), host).toBe(host);
      }
      // Another port on the same address is not the server.
      const other = `${ipv4.find((ip) => ip !== '127.0.0.1') ?? '127.0.0.1'}:${port + 1}`;
      if (!other.startsWith('127.')) expectRefused(await signInAt(app, { domain: other, uri: `http://${other}/` }, { host: other }), ApiCode.signatureInvalid);
      // A foreign Host gets the server's own first site.
      expect(await siweDomainAt(app, { host: 'evil.test' })).toBe(`localhost:${port}`);
    });
  });
});
