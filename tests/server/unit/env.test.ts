import { describe, expect, it } from 'vitest';
import { readEnv } from '../../../server/env';

describe('readEnv', () => {
  it('behavior: applies the defaults', () => {
    expect(readEnv({})).toEqual({ PORT: 8080, HOST: '0.0.0.0', DATA_DIR: './data', TRUST_PROXY: false, LOG_LEVEL: 'info', CONFIRMATIONS: 12, DEV_CHAIN_PORT: 8545, PAYER: 'on' });
  });

  it('behavior: reads the chain settings; an RPC URL needs the token and the treasury', () => {
    const token = '0x55d398326f99059fF775485246999027B3197955';
    const treasury = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    expect(readEnv({ CHAIN_RPC_URL: 'https://a.example, https://b.example/rpc', TOKEN_ADDRESS: token, TREASURY_ADDRESS: treasury, CONFIRMATIONS: '15', TOP_UP_START_BLOCK: '123' })).toMatchObject({
      CHAIN_RPC_URL: ['https://a.example', 'https://b.example/rpc'],
      TOKEN_ADDRESS: token,
      TREASURY_ADDRESS: treasury,
      CONFIRMATIONS: 15,
      TOP_UP_START_BLOCK: 123n,
    });
    expect(() => readEnv({ CHAIN_RPC_URL: 'https://a.example' })).toThrow(/CHAIN_RPC_URL needs TOKEN_ADDRESS and TREASURY_ADDRESS/);
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
      PAYER: 'on',
    });
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
});
