import { describe, expect, it, vi } from 'vitest';
import { createOpsClient } from './opsClient';

/** The desk's client over the shared call core (src/api/envelopeCall.ts): what it adds is the session's cookie rules. */

interface Sent {
  url: string;
  init: RequestInit;
}

function desk(answer: (sent: Sent) => Response, csrfToken: string | null = 'csrf-1') {
  const sent: Sent[] = [];
  const onSessionRejected = vi.fn();
  const logger = { warn: vi.fn(), error: vi.fn() };
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = { url: String(input), init: init ?? {} };
    sent.push(request);
    return answer(request);
  }) as unknown as typeof fetch;
  const api = createOpsClient({ getCsrfToken: () => csrfToken, onSessionRejected, fetchImpl, logger });
  return { api, sent, onSessionRejected, logger };
}

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
const page = { list: [], nextCursor: null, total: 0 };

describe('createOpsClient', () => {
  it('sends the session CSRF token on the same origin only, and the query the contract checked', async () => {
    const { api, sent } = desk(() => json({ code: 0, result: page }));
    await expect(api.call('opsWithdrawals', { query: { status: 'pending', awaiting: 'me', limit: 25 } })).resolves.toEqual({ code: 0, result: page });
    expect(sent[0]?.url).toBe('/api/admin/withdrawals?status=pending&awaiting=me&limit=25');
    expect(sent[0]?.init.credentials).toBe('same-origin');
    expect(sent[0]?.init.headers).toEqual({ Accept: 'application/json', 'X-CSRF-Token': 'csrf-1' });
  });

  it('tells the session when the server answers 1002, unless the call named its own token', async () => {
    const { api, onSessionRejected } = desk(() => json({ code: 1002 }));
    await expect(api.call('opsWithdrawals')).resolves.toEqual({ code: 1002, result: null });
    expect(onSessionRejected).toHaveBeenCalledTimes(1);
    await api.call('opsWithdrawals', { csrfToken: null });
    expect(onSessionRejected).toHaveBeenCalledTimes(1);
  });

  it('sends nothing for parameters the contract refuses, and reads a broken answer as -1', async () => {
    const { api, sent, logger } = desk(() => new Response('<html>proxy error</html>', { status: 502 }));
    await expect(api.call('opsWithdrawals', { query: { address: 'not an address' } })).resolves.toEqual({ code: 1001, result: null });
    expect(sent).toHaveLength(0);
    await expect(api.call('opsWithdrawals')).resolves.toEqual({ code: -1, result: null });
    expect(logger.error.mock.calls[0]?.[0]).toBe('ops api: GET /api/admin/withdrawals answered HTTP 502 with a body that is not JSON');
  });

  it('downloads with the cookie, leaves empty filters out and reports a 401', async () => {
    const { api, sent, onSessionRejected } = desk(() => new Response('a,b\n', { status: 401 }));
    await expect(api.download('/api/admin/audit.csv', { actor: '', act: 'opsGrant' })).resolves.toBeNull();
    expect(sent[0]?.url).toBe('/api/admin/audit.csv?act=opsGrant');
    expect(sent[0]?.init.credentials).toBe('same-origin');
    expect(onSessionRejected).toHaveBeenCalledTimes(1);
  });
});
