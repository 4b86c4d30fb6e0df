import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { DEV_DEPLOYER_KEY, DEV_PAYER_KEY, DEV_TREASURY_KEY } from './chain/devChain';
import { WELL_KNOWN_DEV_KEYS } from './chain/wellKnownKeys';
import { ADMIN_TOKEN_GONE, developmentChainAsked, readEnv, seedKind } from './env';

const token = '0x55d398326f99059fF775485246999027B3197955';
const treasury = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const realChain = { CHAIN_RPC_URL: 'https://bsc.example/v1/SECRET-KEY', TOKEN_ADDRESS: token, TREASURY_ADDRESS: treasury };

describe('readEnv', () => {
  it('behavior: applies the defaults', () => {
    expect(readEnv({})).toEqual({ PORT: 8080, HOST: '0.0.0.0', DATA_DIR: './data', TRUST_PROXY: false, LOG_LEVEL: 'info', CONFIRMATIONS: 12, DEV_CHAIN_PORT: 8545, DEV_CHAIN_BLOCK_TIME: 1, PAYER: 'on', READY_MAX_LAG_MS: 60_000, SHUTDOWN_DRAIN_MS: 0, SHUTDOWN_TIMEOUT_MS: 25_000 });
  });

  it('behavior: seeds minimal content in production (the root inviter required), the demo elsewhere, as SEED says', () => {
    const root = '0x2a3f7cc1d0a37e3e2b63e91c4c8b1d6f6f0c1a2b';
    expect(seedKind(readEnv({}))).toBe('demo');
    expect(seedKind(readEnv({ ...realChain, NODE_ENV: 'production', ROOT_INVITER_ADDRESS: root }))).toBe('minimal');
    expect(seedKind(readEnv({ ...realChain, NODE_ENV: 'production', SEED: 'demo' }))).toBe('demo');
    expect(readEnv({ SEED: 'minimal', ROOT_INVITER_ADDRESS: root, ROOT_INVITE_CODE: 'Root2027' })).toMatchObject({ SEED: 'minimal', ROOT_INVITER_ADDRESS: root, ROOT_INVITE_CODE: 'Root2027' });
    expect(() => readEnv({ ...realChain, NODE_ENV: 'production' })).toThrow('ROOT_INVITER_ADDRESS: NODE_ENV=production seeds minimal content (SEED=demo for the demo): set ROOT_INVITER_ADDRESS');
    expect(() => readEnv({ SEED: 'minimal' })).toThrow('ROOT_INVITER_ADDRESS: SEED=minimal: set ROOT_INVITER_ADDRESS');
    expect(() => readEnv({ SEED: 'lots' })).toThrow(/SEED/);
    expect(() => readEnv({ SEED: 'minimal', ROOT_INVITER_ADDRESS: '0x12' })).toThrow(/ROOT_INVITER_ADDRESS must be an address/);
    expect(() => readEnv({ SEED: 'minimal', ROOT_INVITER_ADDRESS: root, ROOT_INVITE_CODE: 'a b' })).toThrow(/ROOT_INVITE_CODE must be 4 to 16 letters and digits/);
  });

  it('behavior: reads the chain settings; an RPC URL needs the token and the treasury', () => {
    expect(readEnv({ CHAIN_RPC_URL: 'https://a.example, https://b.example/rpc', TOKEN_ADDRESS: token, TREASURY_ADDRESS: treasury, CONFIRMATIONS: '15', TOP_UP_START_BLOCK: '123' })).toMatchObject({
      CHAIN_RPC_URL: ['https://a.example', 'https://b.example/rpc'],
      TOKEN_ADDRESS: token,
      TREASURY_ADDRESS: treasury,
      CONFIRMATIONS: 15,
      TOP_UP_START_BLOCK: 123n,
    });
    expect(() => readEnv({ CHAIN_RPC_URL: 'https://a.example' })).toThrow(/a real chain needs CHAIN_RPC_URL, TOKEN_ADDRESS, TREASURY_ADDRESS; missing: TOKEN_ADDRESS, TREASURY_ADDRESS/);
    expect(() => readEnv({ CHAIN_RPC_URL: 'ftp://a.example', TOKEN_ADDRESS: token, TREASURY_ADDRESS: treasury })).toThrow(/comma-separated http\(s\) URLs/);
    expect(() => readEnv({ TOKEN_ADDRESS: '0x12' })).toThrow(/TOKEN_ADDRESS must be an address/);
  });

  it('behavior: reads every variable, treating empty as unset', () => {
    expect(
      readEnv({ PORT: '3000', HOST: '127.0.0.1', DATA_DIR: '/var/lib/md', DATABASE_URL: 'postgres://u@db/md', SIWE_DOMAIN: 'member.example:8443', TRUST_PROXY: 'true', LOG_LEVEL: '' }),
    ).toEqual({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/md',
      DATABASE_URL: 'postgres://u@db/md',
      SIWE_DOMAIN: 'member.example:8443',
      TRUST_PROXY: true,
      LOG_LEVEL: 'info',
      CONFIRMATIONS: 12,
      DEV_CHAIN_PORT: 8545,
      DEV_CHAIN_BLOCK_TIME: 1,
      PAYER: 'on',
      READY_MAX_LAG_MS: 60_000,
      SHUTDOWN_DRAIN_MS: 0,
      SHUTDOWN_TIMEOUT_MS: 25_000,
    });
  });

  it('behavior: reads the owner\'s DATABASE_MIGRATION_URL beside DATABASE_URL, and refuses it without one', () => {
    expect(readEnv({ DATABASE_URL: 'postgres://app@db/md', DATABASE_MIGRATION_URL: 'postgresql://owner@db/md' })).toMatchObject({
      DATABASE_URL: 'postgres://app@db/md',
      DATABASE_MIGRATION_URL: 'postgresql://owner@db/md',
    });
    expect(readEnv({ DATABASE_URL: 'postgres://app@db/md', DATABASE_MIGRATION_URL: '' }).DATABASE_MIGRATION_URL).toBeUndefined();
    expect(() => readEnv({ DATABASE_MIGRATION_URL: 'postgres://owner@db/md' })).toThrow(/DATABASE_MIGRATION_URL: DATABASE_MIGRATION_URL is the owner of DATABASE_URL's tables: set DATABASE_URL too/);
    expect(() => readEnv({ DATABASE_URL: 'postgres://app@db/md', DATABASE_MIGRATION_URL: 'mysql://owner@db/md' })).toThrow(/DATABASE_MIGRATION_URL must be a postgres:\/\/ URL/);
  });

  it('behavior: reads the readiness and shutdown settings, refusing what is out of range', () => {
    expect(readEnv({ READY_MAX_LAG_MS: '0', SHUTDOWN_DRAIN_MS: '5000', SHUTDOWN_TIMEOUT_MS: '30000' })).toMatchObject({ READY_MAX_LAG_MS: 0, SHUTDOWN_DRAIN_MS: 5000, SHUTDOWN_TIMEOUT_MS: 30_000 });
    expect(() => readEnv({ SHUTDOWN_DRAIN_MS: '-1' })).toThrow(/SHUTDOWN_DRAIN_MS/);
    expect(() => readEnv({ READY_MAX_LAG_MS: 'soon' })).toThrow(/READY_MAX_LAG_MS/);
  });

  it('behavior: reads the development chain\'s pace and the chain polling, refusing what is out of range', () => {
    expect(readEnv({ DEV_CHAIN_BLOCK_TIME: '0.25', CHAIN_POLL_MS: '250' })).toMatchObject({ DEV_CHAIN_BLOCK_TIME: 0.25, CHAIN_POLL_MS: 250 });
    expect(() => readEnv({ DEV_CHAIN_BLOCK_TIME: '0.01' })).toThrow(/DEV_CHAIN_BLOCK_TIME/);
    expect(() => readEnv({ DEV_CHAIN_BLOCK_TIME: 'fast' })).toThrow(/DEV_CHAIN_BLOCK_TIME/);
    expect(() => readEnv({ CHAIN_POLL_MS: '10' })).toThrow(/CHAIN_POLL_MS/);
    expect(() => readEnv({ CHAIN_POLL_MS: '2.5' })).toThrow(/CHAIN_POLL_MS/);
  });

  it('behavior: refuses ADMIN_TOKEN in one line saying it is gone and how the first admin is made (empty is unset)', () => {
    let refusal = '';
    try {
      readEnv({ ADMIN_TOKEN: 'a-token-from-an-old-deployment-0123456789' });
    } catch (error) {
      refusal = error instanceof Error ? error.message : String(error);
    }
    expect(refusal).toBe(`Invalid environment: ADMIN_TOKEN: ${ADMIN_TOKEN_GONE}`);
    expect(refusal).not.toContain('\n');
    expect(ADMIN_TOKEN_GONE).toMatch(/ADMIN_TOKEN is gone.*OPS_FIRST_ADMIN.*npm run ops -- add/);
    expect(readEnv({ ADMIN_TOKEN: '' }).ADMIN_TOKEN).toBeUndefined();
  });

  it('behavior: reads PAYER_KEY from PAYER_KEY_FILE (systemd LoadCredential), refusing both at once, an unreadable file or a bad key', async () => {
    const key = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
    const dir = await mkdtemp(path.join(tmpdir(), 'payer-key-'));
    try {
      const file = path.join(dir, 'payer-key');
      await writeFile(file, `${key}\n`, { mode: 0o600 });
      expect(readEnv({ PAYER_KEY_FILE: file })).toMatchObject({ PAYER_KEY: key });
      expect(() => readEnv({ PAYER_KEY_FILE: file, PAYER_KEY: key })).toThrow('Invalid environment: PAYER_KEY_FILE: set PAYER_KEY or PAYER_KEY_FILE, not both');
      expect(() => readEnv({ PAYER_KEY_FILE: path.join(dir, 'missing') })).toThrow(`Invalid environment: PAYER_KEY_FILE: cannot read ${path.join(dir, 'missing')} (ENOENT)`);
      await writeFile(file, '0x12');
      expect(() => readEnv({ PAYER_KEY_FILE: file })).toThrow(`Invalid environment: PAYER_KEY_FILE: ${file} must hold 0x and 64 hex digits (one line)`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('behavior: reads the payer settings and refuses a bad key, amount or switch', () => {
    const key = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
    expect(readEnv({ PAYER_KEY: key, AUTO_APPROVE_MAX: '12.5', AUTO_APPROVE_HOURLY: '100', PAYER: 'off', PAYER_FAULT_AT: 'stored' })).toMatchObject({
      PAYER_KEY: key,
      AUTO_APPROVE_MAX: '12.5',
      AUTO_APPROVE_HOURLY: '100',
      PAYER: 'off',
      PAYER_FAULT_AT: 'stored',
    });
    expect(() => readEnv({ AUTO_APPROVE_HOURLY: '1e3' })).toThrow(/AUTO_APPROVE_HOURLY must be an amount/);
    expect(() => readEnv({ PAYER_KEY: '0x12' })).toThrow(/PAYER_KEY must be 0x and 64 hex digits/);
    expect(() => readEnv({ AUTO_APPROVE_MAX: '-1' })).toThrow(/AUTO_APPROVE_MAX must be an amount/);
    expect(() => readEnv({ AUTO_APPROVE_MAX: '1.1234567' })).toThrow(/AUTO_APPROVE_MAX must be an amount/);
    expect(() => readEnv({ PAYER: 'maybe' })).toThrow(/PAYER/);
  });

  it('behavior: takes several sign-in domains and a public URL', () => {
    expect(readEnv({ SIWE_DOMAIN: 'member.example, 192.168.1.20:8080', PUBLIC_URL: 'https://member.example' })).toMatchObject({
      SIWE_DOMAIN: 'member.example, 192.168.1.20:8080',
      PUBLIC_URL: 'https://member.example',
    });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['1', 1],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, loopback, ::1', ['10.0.0.0/8', 'loopback', '::1']],
  ] as const)('behavior: reads TRUST_PROXY=%s', (value, expected) => {
    expect(readEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SIWE_DOMAIN: 'https://member.example' }, 'SIWE_DOMAIN'],
    [{ SIWE_DOMAIN: 'member.example,evil@member.example' }, 'SIWE_DOMAIN'],
    [{ PUBLIC_URL: 'member.example' }, 'PUBLIC_URL'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1/8/2' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'loopback/8' }, 'TRUST_PROXY'],
    [{ PUBLIC_URL: 'https://member.example/app' }, 'PUBLIC_URL'],
  ])('behavior: refuses %j naming the variable', (env, name) => {
    expect(() => readEnv(env)).toThrow(name);
  });

  describe('fail closed', () => {
    it('behavior: runs the development chain only when asked: no chain setting outside production, or DEV_CHAIN=on', () => {
      expect(developmentChainAsked(readEnv({}))).toBe(true);
      expect(developmentChainAsked(readEnv({ NODE_ENV: 'development' }))).toBe(true);
      expect(developmentChainAsked(readEnv({ NODE_ENV: 'production', DEV_CHAIN: 'on' }))).toBe(true);
      expect(developmentChainAsked(readEnv({ NODE_ENV: 'production', ...realChain, SEED: 'demo' }))).toBe(false);
      expect(developmentChainAsked(readEnv(realChain))).toBe(false);
    });

    it('behavior: refuses a production start without a chain, naming the missing settings', () => {
      expect(() => readEnv({ NODE_ENV: 'production' })).toThrow(
        'NODE_ENV is production, so a real chain needs CHAIN_RPC_URL, TOKEN_ADDRESS, TREASURY_ADDRESS; missing: CHAIN_RPC_URL, TOKEN_ADDRESS, TREASURY_ADDRESS',
      );
      expect(() => readEnv({ DEV_CHAIN: 'off' })).toThrow(/DEV_CHAIN is off, so a real chain needs .*; missing: CHAIN_RPC_URL, TOKEN_ADDRESS, TREASURY_ADDRESS/);
    });

    it.each([
      [{ TOKEN_ADDRESS: token }, 'missing: CHAIN_RPC_URL, TREASURY_ADDRESS (set: TOKEN_ADDRESS)'],
      [{ TREASURY_ADDRESS: treasury, NODE_ENV: 'production' }, 'missing: CHAIN_RPC_URL, TOKEN_ADDRESS (set: TREASURY_ADDRESS)'],
      [{ CHAIN_RPC_URL: 'https://bsc.example', TOKEN_ADDRESS: token }, 'missing: TREASURY_ADDRESS (set: CHAIN_RPC_URL, TOKEN_ADDRESS)'],
    ])('behavior: refuses a partial chain setting %j in any NODE_ENV, never falling back to the development chain', (env, missing) => {
      expect(() => readEnv(env)).toThrow(missing);
    });

    it('behavior: refuses DEV_CHAIN=on beside a real chain', () => {
      expect(() => readEnv({ ...realChain, DEV_CHAIN: 'on' })).toThrow(/DEV_CHAIN=on runs the development chain, but CHAIN_RPC_URL names a real one/);
    });

    it("behavior: refuses each of anvil's ten well-known keys as PAYER_KEY on a real chain (the dev chain's and the tests' among them)", () => {
      const derived = Array.from({ length: 10 }, (_, index) => {
        const key = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: index }).getHdKey().privateKey;
        return key ? toHex(key) : '';
      });
      expect(WELL_KNOWN_DEV_KEYS).toEqual(derived);
      expect(WELL_KNOWN_DEV_KEYS).toEqual(expect.arrayContaining([DEV_DEPLOYER_KEY, DEV_TREASURY_KEY, DEV_PAYER_KEY]));
      derived.forEach((key, index) => {
        expect(() => readEnv({ ...realChain, PAYER_KEY: key.toUpperCase().replace('0X', '0x') })).toThrow(`PAYER_KEY is anvil's well-known development key (account ${index} of its default mnemonic)`);
      });
      // On the development chain they are what it runs on.
      expect(readEnv({ PAYER_KEY: DEV_PAYER_KEY }).PAYER_KEY).toBe(DEV_PAYER_KEY);
      const ownKey = '0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63';
      expect(readEnv({ ...realChain, PAYER_KEY: ownKey }).PAYER_KEY).toBe(ownKey);
    });

    it('behavior: takes https anywhere and http only to a loopback host; the refusal names the URL without its key', () => {
      for (const url of ['https://bsc.example/v1/key', 'http://127.0.0.1:8545', 'http://127.8.9.10/rpc', 'http://localhost:8545', 'http://[::1]:8545/']) {
        expect(readEnv({ ...realChain, CHAIN_RPC_URL: url }).CHAIN_RPC_URL).toEqual([url]);
      }
      for (const url of ['http://bsc.example/v1/SECRET-KEY', 'http://10.0.0.5:8545/SECRET-KEY', 'http://[::ffff:127.0.0.1]/SECRET-KEY', 'http://127.0.0.1.nip.io/SECRET-KEY']) {
        let message = '';
        try {
          readEnv({ ...realChain, CHAIN_RPC_URL: `https://ok.example, ${url}` });
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).toMatch(/CHAIN_RPC_URL must be comma-separated http\(s\) URLs: http:\/\/.*\/… must be https \(http only for a loopback host/);
        expect(message).not.toContain('SECRET');
      }
    });
  });
});
