import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './client';
import type { CreateApiClientParameters } from './client';
import { loadClientContract } from './contractLoader';

const texts: Record<string, string> = {
  'Common.0': 'Done',
  'Common.-1': 'Network problem, please try again',
  'Common.1001': 'Invalid parameters',
  'Common.1002': 'Please sign in',
  'Common.unknown': 'Something went wrong',
};
/** Like i18next's t: the key itself when there is no text. */
const translate = (key: string) => texts[key] ?? key;

const meInfo = {
  address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  inviteCode: 'AB12CD',
  recommender: null,
  level: 0,
  creditBalance: '0',
  wposBalance: '12.5',
  teamSize: 0,
  directCount: 0,
  createdAt: '2024-05-01T00:00:00.000Z',
};

interface Sent {
  url: string;
  init: RequestInit;
}

function fakeFetch(answer: (sent: Sent) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = { url: String(input), init: init ?? {} };
    sent.push(request);
    return answer(request);
  });
  return { sent, fetchImpl: fetchImpl as unknown as typeof fetch };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function client(overrides: Partial<CreateApiClientParameters> & Pick<CreateApiClientParameters, 'fetchImpl'>) {
  const logger = { warn: vi.fn(), error: vi.fn() };
  const api = createApiClient({ getAuthorization: () => null, translate, logger, ...overrides });
  return { api, logger };
}

// The schemas load with the first call; loading them up front keeps the fake-timer tests about the request alone.
beforeAll(async () => {
  await loadClientContract();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('createApiClient', () => {
  it('behavior: GET sends the base path, query and the token without quotes; returns the parsed result', async () => {
    const { sent, fetchImpl } = fakeFetch(() => json({ code: 0, result: { nonce: 'n0nce-123', issuedAt: meInfo.createdAt, expirationTime: meInfo.createdAt } }));
    const { api } = client({ fetchImpl, baseUrl: 'https://api.example', getAuthorization: () => '"tok-1"' });
    const result = await api.call('loginNonce', { query: { address: meInfo.address } });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(`https://api.example/api/member/loginNonce?address=${meInfo.address}`);
    expect(sent[0]?.init.method).toBe('GET');
    expect(sent[0]?.init.headers).toEqual({ Accept: 'application/json', Authorization: 'tok-1' });
    expect(sent[0]?.init.body).toBeUndefined();
    expect(sent[0]?.init.signal).toBeInstanceOf(AbortSignal);
    expect(result).toEqual({
      code: 0,
      message: 'Done',
      result: { nonce: 'n0nce-123', issuedAt: meInfo.createdAt, expirationTime: meInfo.createdAt },
    });
  });

  it('behavior: POST sends the validated body as JSON with the JSON content type', async () => {
    const { sent, fetchImpl } = fakeFetch(() => json({ code: 0, result: { auth: 'token-xyz', isFinishedBind: false } }));
    const { api } = client({ fetchImpl });
    const body = { message: 'example.com wants you to sign in', signature: '0xabcdef', inviteCode: 'AB12CD' };
    const result = await api.call('memberSignLogin', { body });
    expect(sent[0]?.url).toBe('/api/member/memberSignLogin');
    expect(sent[0]?.init.method).toBe('POST');
    expect(sent[0]?.init.headers).toEqual({ Accept: 'application/json', 'Content-Type': 'application/json' });
    expect(sent[0]?.init.body).toBe(JSON.stringify(body));
    expect(result).toEqual({ code: 0, message: 'Done', result: { auth: 'token-xyz', isFinishedBind: false } });
  });

  it('behavior: a POST without a body sends {} (logout)', async () => {
    const { sent, fetchImpl } = fakeFetch(() => json({ code: 0 }));
    const { api } = client({ fetchImpl, getAuthorization: () => 'plain-token' });
    await expect(api.call('logout')).resolves.toEqual({ code: 0, message: 'Done' });
    expect(sent[0]?.init.body).toBe('{}');
    expect(sent[0]?.init.headers).toMatchObject({ Authorization: 'plain-token' });
  });

  it('behavior: query defaults and coercions are sent as the schema outputs them', async () => {
    const { sent, fetchImpl } = fakeFetch(() => json({ code: 0, result: { list: [], total: 0, page: 2, pageSize: 20 } }));
    const { api } = client({ fetchImpl });
    await api.call('creditRecord', { query: { page: '2', type: 'withdraw' } });
    expect(sent[0]?.url).toBe('/api/member/creditRecord?page=2&pageSize=20&type=withdraw');
  });

  it('behavior: an empty stored token sends no Authorization header', async () => {
    const { sent, fetchImpl } = fakeFetch(() => json({ code: 0, result: meInfo }));
    await client({ fetchImpl, getAuthorization: () => '""' }).api.call('meInfo');
    expect(sent[0]?.init.headers).toEqual({ Accept: 'application/json' });
  });

  it('behavior: invalid parameters give 1001 and send nothing', async () => {
    const { sent, fetchImpl } = fakeFetch(() => json({ code: 0 }));
    const { api, logger } = client({ fetchImpl });
    await expect(api.call('bindRecommendRelation', { body: { inviteCode: 'no!' } })).resolves.toEqual({
      code: 1001,
      message: 'Invalid parameters',
    });
    expect(sent).toEqual([]);
    expect(logger.warn).toHaveBeenCalledOnce();
  });

  it('behavior: a failure code comes back with its translated message and no result, whatever the HTTP status', async () => {
    const { fetchImpl } = fakeFetch(() => json({ code: 1002, message: 'server words', result: { x: 1 } }, 401));
    await expect(client({ fetchImpl }).api.call('meInfo')).resolves.toEqual({ code: 1002, message: 'Please sign in' });
  });

  it('behavior: a code without a text gets Common.unknown', async () => {
    const { fetchImpl } = fakeFetch(() => json({ code: 9999 }));
    await expect(client({ fetchImpl }).api.call('meInfo')).resolves.toEqual({ code: 9999, message: 'Something went wrong' });
  });

  it('behavior: a network error gives -1 and is logged', async () => {
    const fetchImpl = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const { api, logger } = client({ fetchImpl });
    await expect(api.call('meInfo')).resolves.toEqual({ code: -1, message: 'Network problem, please try again' });
    expect(logger.error).toHaveBeenCalledWith('api: GET /api/member/meInfo failed', expect.any(TypeError));
  });

  it('behavior: a body that is not JSON gives -1 and is logged', async () => {
    const { fetchImpl } = fakeFetch(() => new Response('<html>502 Bad Gateway</html>', { status: 502 }));
    const { api, logger } = client({ fetchImpl });
    await expect(api.call('meInfo')).resolves.toMatchObject({ code: -1 });
    expect(logger.error.mock.calls[0]?.[0]).toMatchInlineSnapshot(`"api: GET /api/member/meInfo answered HTTP 502 with a body that is not JSON"`);
  });

  it('behavior: JSON that is not an envelope gives -1', async () => {
    const { fetchImpl } = fakeFetch(() => json({ ok: true }));
    const { api, logger } = client({ fetchImpl });
    await expect(api.call('meInfo')).resolves.toMatchObject({ code: -1 });
    expect(logger.error).toHaveBeenCalledOnce();
  });

  it('behavior: a success whose result breaks the contract gives -1 and is logged', async () => {
    const { fetchImpl } = fakeFetch(() => json({ code: 0, result: { ...meInfo, wposBalance: 12.5 } }));
    const { api, logger } = client({ fetchImpl });
    await expect(api.call('meInfo')).resolves.toEqual({ code: -1, message: 'Network problem, please try again' });
    expect(logger.error.mock.calls[0]?.[0]).toMatchInlineSnapshot(`"api: GET /api/member/meInfo result does not match the contract"`);
  });

  it('behavior: no answer within 50 s aborts the request and gives -1', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const fetchImpl = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          signal = init?.signal ?? undefined;
          signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
        }),
    );
    const { api, logger } = client({ fetchImpl });
    let settled = false;
    const result = api.call('meInfo').finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(49_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ code: -1, message: 'Network problem, please try again' });
    expect(signal?.aborted).toBe(true);
    expect(logger.error.mock.calls[0]?.[0]).toMatchInlineSnapshot(`"api: GET /api/member/meInfo timed out after 50000 ms"`);
  });

  it('behavior: the timer is cleared once an answer arrives', async () => {
    vi.useFakeTimers();
    const { fetchImpl } = fakeFetch(() => json({ code: 0, result: meInfo }));
    await client({ fetchImpl }).api.call('meInfo');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('types: call requires the parameters the endpoint needs', () => {
    const { api } = client({ fetchImpl: fakeFetch(() => json({ code: 0 })).fetchImpl });
    const typeOnly = () => {
      // @ts-expect-error memberSignLogin needs a body
      void api.call('memberSignLogin');
      // @ts-expect-error meInfo takes no body
      void api.call('meInfo', { body: { x: 1 } });
      // @ts-expect-error inviteCode must be a string
      void api.call('bindRecommendRelation', { body: { inviteCode: 1 } });
    };
    expect(typeOnly).toBeTypeOf('function');
  });
});
