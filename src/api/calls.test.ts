import { describe, expect, it, vi } from 'vitest';
import { toAnswer } from './answer';
import { bindRecommendRelation } from './bindRecommendRelation';
import { createApiClient } from './client';
import { getDappParam } from './getDappParam';
import { getLoginNonce } from './getLoginNonce';
import { getMeInfo } from './getMeInfo';
import { logout } from './logout';
import { memberSignLogin } from './memberSignLogin';
import { fetchAbout, fetchBotPage, fetchCreditRecords, fetchNotice, fetchNoticePage, fetchTeamPage, searchTeam, withdrawCredit } from './screenCalls';

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

  it('behavior: each screen call hits its contract path and answers as the machines read it', async () => {
    const page = { list: [], total: 0, page: 1, pageSize: 20 };
    const { api, sent } = apiAnswering({
      '/api/member/team': page,
      '/api/member/team/search': { list: [] },
      '/api/member/creditRecord': page,
      '/api/member/withdrawCredit': { id: 'w1', amount: '10', fee: '1', status: 'pending' },
      '/api/dapp/solbotList': page,
      '/api/dapp/queryPagePlatformNotice': page,
      '/api/dapp/noticeDetail': { noticeId: 'n1', title: 'T', content: '<p>C</p>', publishedAt: createdAt },
      '/api/dapp/aboutOur': { title: 'About', content: '<p>A</p>' },
    });
    expect(await fetchTeamPage(api, { page: 1, pageSize: 20 })).toEqual({ code: 0, result: page });
    expect(await searchTeam(api, { keyword: 'abcd' })).toEqual({ code: 0, result: { list: [] } });
    expect(await fetchCreditRecords(api, { page: 2, pageSize: 10, type: 'withdraw' })).toEqual({ code: 0, result: page });
    expect((await withdrawCredit(api, { amount: '10', requestId: '0f8fad5b-d9cb-469f-a165-70867728950e' })).result?.status).toBe('pending');
    expect((await fetchBotPage(api, { page: 1, pageSize: 20 })).code).toBe(0);
    expect((await fetchNoticePage(api, { page: 1, pageSize: 1, lang: 'en' })).code).toBe(0);
    expect((await fetchNotice(api, { noticeId: 'n1', lang: 'en' })).result?.title).toBe('T');
    expect((await fetchAbout(api, { lang: 'zh' })).result?.title).toBe('About');
    expect(sent.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'GET /api/member/team?page=1&pageSize=20',
      'GET /api/member/team/search?keyword=abcd',
      'GET /api/member/creditRecord?page=2&pageSize=10&type=withdraw',
      'POST /api/member/withdrawCredit',
      'GET /api/dapp/solbotList?page=1&pageSize=20',
      'GET /api/dapp/queryPagePlatformNotice?page=1&pageSize=1&lang=en',
      'GET /api/dapp/noticeDetail?noticeId=n1&lang=en',
      'GET /api/dapp/aboutOur?lang=zh',
    ]);
  });
});

describe('toAnswer', () => {
  it('behavior: keeps the result only with code 0, and null otherwise', () => {
    expect(toAnswer({ code: 0, message: 'ok', result: { a: 1 } })).toEqual({ code: 0, result: { a: 1 } });
    expect(toAnswer({ code: 1002, message: 'sign in' })).toEqual({ code: 1002, result: null });
    expect(toAnswer({ code: 0, message: 'ok' })).toEqual({ code: 0, result: null });
  });
});
