import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('../../api-schema/clientContract');
  vi.resetModules();
});

describe('loadClientContract', () => {
  it('behavior: loads the schemas once and hands the same module to later callers', async () => {
    const { loadClientContract, loadedClientContract } = await import('./contractLoader');
    expect(loadedClientContract()).toBeUndefined();
    const first = await loadClientContract();
    expect(first.endpoints.meInfo.path).toBe('/api/member/meInfo');
    expect(await loadClientContract()).toBe(first);
    expect(loadedClientContract()).toBe(first);
  });

  it('behavior: a failed download is not remembered: the next call loads it again', async () => {
    vi.doMock('../../api-schema/clientContract', () => {
      throw new Error('chunk download failed');
    });
    const { loadClientContract, loadedClientContract } = await import('./contractLoader');
    await expect(loadClientContract()).rejects.toThrow();
    expect(loadedClientContract()).toBeUndefined();
    vi.doUnmock('../../api-schema/clientContract');
    await expect(loadClientContract()).resolves.toHaveProperty('envelopeSchema');
  });

  it('behavior: the API client answers -1 when the schemas cannot load, and sends nothing', async () => {
    vi.doMock('../../api-schema/clientContract', () => {
      throw new Error('chunk download failed');
    });
    const { createApiClient } = await import('./client');
    const fetchImpl = vi.fn<typeof fetch>();
    const logger = { warn: vi.fn(), error: vi.fn() };
    const api = createApiClient({ getAuthorization: () => null, translate: (key) => (key === 'Common.-1' ? 'Network problem' : key), fetchImpl, logger });
    await expect(api.call('meInfo')).resolves.toEqual({ code: -1, message: 'Network problem' });
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(logger.error.mock.calls[0]?.[0]).toBe('api: meInfo not sent, the contract module did not load');
  });

  it("behavior: the app config's call checks its answer without the other endpoints' schemas (a first visit's /login)", async () => {
    vi.doMock('../../api-schema/clientContract', () => {
      throw new Error('never loaded for the app config');
    });
    const { testDappParam } = await import('../../tests/support/fakeApi');
    const { createApiClient } = await import('./client');
    const { loadedClientContract, loadedConfigContract } = await import('./contractLoader');
    const fetchImpl = vi.fn<typeof fetch>(async () => new Response(JSON.stringify({ code: 0, result: testDappParam }), { headers: { 'Content-Type': 'application/json' } }));
    const api = createApiClient({ getAuthorization: () => null, translate: (key) => key, fetchImpl, logger: { warn: vi.fn(), error: vi.fn() } });
    await expect(api.call('dappParam')).resolves.toMatchObject({ code: 0, result: { chainId: testDappParam.chainId } });
    expect(loadedConfigContract()).toHaveProperty('dappParamSchema');
    expect(loadedClientContract()).toBeUndefined();
  });
});
