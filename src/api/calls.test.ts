import { describe, expect, it, vi } from 'vitest';
import { bindRecommendRelation } from './bindRecommendRelation';
import { createApiClient } from './client';
import { getDappParam } from './getDappParam';
import { getLoginNonce } from './getLoginNonce';
import { getMeInfo } from './getMeInfo';
import { logout } from './logout';
import { memberSignLogin } from './memberSignLogin';

const address = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const createdAt = '2024-05-01T00:00:00.000Z';
const dappParam = {
  chainId: 56,
  chain: { chainName: 'BNB Smart Chain', nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 }, rpcUrls: ['https://bsc-dataseed.bnbchain.org'] },
  minWithdraw: '10',
  maxWithdraw: '10000',
  withdrawFee: '1',
  dailyWithdrawCap: '20000',
  exchangeRate: '0.5',
  minTransfer: '1',
  siweDomain: 'member.example',
  siweStatement: 'Sign in to Member DApp',
};
const meInfo = { address, inviteCode: 'AB12CD', recommender: null, level: 0, creditBalance: '0', wposBalance: '0', teamSize: 0, directCount: 0, createdAt };

/** A client over a fake fetch that answers each path with `results[path]`. */
function apiAnswering(results: Record<string, unknown>) {
  const sent: { method: string; url: string; body: unknown }[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    sent.push({ method: init?.method ?? 'GET', url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    const path = url.split('?')[0] ?? url;
    return new Response(JSON.stringify({ code: 0, result: results[path] }));
  });
  const api = createApiClient({ getAuthorization: () => null, translate: (key) => key, fetchImpl, logger: { warn: vi.fn(), error: vi.fn() } });
  return { api, sent };
}

describe('API calls', () => {
  it('behavior: each call hits its contract path with its parameters', async () => {
    const { api, sent } = apiAnswering({
      '/api/member/loginNonce': { nonce: 'abcdefgh', issuedAt: createdAt, expirationTime: createdAt },
      '/api/member/memberSignLogin': { auth: 'tok', isFinishedBind: true },
      '/api/member/meInfo': meInfo,
      '/api/dapp/dappParam': dappParam,
    });
    expect((await getLoginNonce(api, { address })).result?.nonce).toBe('abcdefgh');
    expect((await memberSignLogin(api, { message: 'm', signature: '0x01' })).result).toEqual({ auth: 'tok', isFinishedBind: true });
    expect((await bindRecommendRelation(api, { inviteCode: 'AB12CD' })).code).toBe(0);
    expect((await getMeInfo(api)).result?.inviteCode).toBe('AB12CD');
    expect((await getDappParam(api)).result?.chainId).toBe(56);
    expect((await logout(api)).code).toBe(0);
    expect(sent).toEqual([
      { method: 'GET', url: `/api/member/loginNonce?address=${address}`, body: undefined },
      { method: 'POST', url: '/api/member/memberSignLogin', body: { message: 'm', signature: '0x01' } },
      { method: 'POST', url: '/api/member/bindRecommendRelation', body: { inviteCode: 'AB12CD' } },
      { method: 'GET', url: '/api/member/meInfo', body: undefined },
      { method: 'GET', url: '/api/dapp/dappParam', body: undefined },
      { method: 'POST', url: '/api/member/logout', body: {} },
    ]);
  });
});
