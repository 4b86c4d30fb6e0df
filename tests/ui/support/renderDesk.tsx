/**
 * Renders the operators' desk for UI tests as src/ops/main.tsx starts it: the real desk actors over fakes at the
 * boundaries (a fake fetch that answers each call by its path and stands for the browser's session cookie, a fake
 * EIP-1193 wallet, storage in memory), the real
 * routes in a memory router, and the bundled English texts.
 */
import { act, render } from '@testing-library/react';
import type { RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router-dom';
import { afterEach, vi } from 'vitest';
import { createI18n } from '../../../src/i18n/i18n';
import { DeskApp } from '../../../src/ops/DeskApp';
import { createDeskActors } from '../../../src/ops/deskActors';
import type { DeskActors } from '../../../src/ops/deskActors';
import { deskRoutes } from '../../../src/ops/deskRoutes';
import { createDeskStorage } from '../../../src/ops/deskStorage';
import { createFakeEip1193Provider } from '../../support/fakeEip1193Provider';
import type { FakeEip1193Provider } from '../../support/fakeEip1193Provider';
import { testDappParam } from '../../support/fakeApi';
import { englishResources } from './renderApp';

export const financeAddress = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

/** The seed's money settings (server/seed/content.ts), as GET /api/admin/config/money answers them. */
export const seededMoneySettings = { minWithdraw: '10', maxWithdraw: '5000', withdrawFee: '1', dailyWithdrawCap: '10000', exchangeRate: '0.5', minTransfer: '1' };

/** The overview of a quiet desk: nothing waits, nothing fires, reconcile ok; the parts of finance and support. */
export const quietOverview = {
  at: '2026-11-27T10:00:00.000Z',
  money: null,
  withdrawals: null,
  orders: null,
  runway: null,
  lags: { payerSeconds: 4, watcherSeconds: 3, watcherBehindBlocks: 2, chainUnreachable: false },
  reconcile: { ok: true, ranAt: '2026-11-27T09:55:00.000Z', difference: '0' },
  payoutsPaused: false,
  alerts: [],
};

/** An answer of the fake API: an envelope, or a promise of one (held until the test resolves it). */
export type DeskAnswer = { code: number; result?: unknown } | Promise<{ code: number; result?: unknown }>;
/** Answers by "METHOD /path"; each handler gets the query or body. */
export type DeskHandlers = Record<string, (input: { query: URLSearchParams; body: unknown; csrfToken: string | null }) => DeskAnswer>;

export interface DeskCall {
  key: string;
  query: URLSearchParams;
  body: unknown;
  /** The X-CSRF-Token header. */
  csrfToken: string | null;
  /** Whether the browser would send its cookies (fetch's credentials). */
  credentials: RequestCredentials | null;
  /** Any Authorization header: the desk sends none. */
  authorization: string | null;
}

/** The CSRF token the fake opsMe answers for a signed-in operator. */
export const deskCsrfToken = 'ops-csrf';

export interface RenderedDesk extends RenderResult {
  actors: DeskActors;
  router: ReturnType<typeof createMemoryRouter>;
  provider: FakeEip1193Provider;
  calls: DeskCall[];
  store: Map<string, string>;
  user: ReturnType<typeof userEvent.setup>;
  /** Replaces (or adds) an answer. */
  answer(key: string, handler: DeskHandlers[string]): void;
}

const mounted: DeskActors[] = [];
afterEach(() => {
  for (const actors of mounted.splice(0)) actors.stop();
});

/**
 * A window as wide as a desktop's (src/ops/useWide.ts asks matchMedia, which jsdom lacks: without it the desk is a
 * phone's). Undone after each test (tests/ui/support/setupDom.ts).
 */
function stubWideWindow(): void {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('min-width'),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

export interface RenderDeskOptions {
  path?: string;
  /** The operator whose session cookie the browser holds (opsMe answers them); none: signed out. */
  signedInAs?: { roles: readonly string[]; address?: string } | null;
  handlers?: DeskHandlers;
  /** A desktop's width (900 px and up): the lists are tables. */
  wide?: boolean;
}

/**
 * Renders the desk.
 *
 * @example const desk = await renderDesk({ path: '/ops/reconcile', signedInAs: { roles: ['finance'] }, handlers: { 'GET /api/admin/reconcile': () => ({ code: 0, result }) } });
 */
export async function renderDesk({ path = '/ops', signedInAs = null, handlers = {}, wide = false }: RenderDeskOptions = {}): Promise<RenderedDesk> {
  if (wide) stubWideWindow();
  // What an earlier desk left in localStorage: the desk clears it at start.
  const store = new Map<string, string>([['OPS_TOKEN', JSON.stringify('mdo_left-by-an-earlier-desk')]]);
  const operator = signedInAs ? { address: signedInAs.address ?? financeAddress, roles: signedInAs.roles } : null;
  const answers: DeskHandlers = {
    'GET /api/dapp/dappParam': () => ({ code: 0, result: testDappParam }),
    'GET /api/admin/me': () => (operator ? { code: 0, result: { ...operator, via: 'session', csrfToken: deskCsrfToken } } : { code: 1002 }),
    'POST /api/admin/auth/logout': () => ({ code: 0, result: {} }),
    // The policy card on the members screen reads it; a screen's own tests answer it otherwise.
    'GET /api/admin/policy': () => ({ code: 0, result: { rules: [] } }),
    // The alerts above every screen (parts/FiringAlerts.tsx): none firing unless a test answers otherwise.
    'GET /api/admin/alerts': () => ({ code: 0, result: { firing: [], resolved: [] } }),
    // The desk's home (screens/overview.tsx): a quiet one unless a test answers otherwise.
    'GET /api/admin/overview': () => ({ code: 0, result: quietOverview }),
    // The money settings on the members screen (finance): the seeded values, nothing waiting.
    'GET /api/admin/config/money': () => ({ code: 0, result: { current: seededMoneySettings, pending: null } }),
    ...handlers,
  };
  const calls: DeskCall[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(String(input), 'http://desk.test');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call = { key, query: url.searchParams, body, csrfToken: headers['X-CSRF-Token'] ?? null, credentials: init?.credentials ?? null, authorization: headers.Authorization ?? null };
    calls.push(call);
    const handler = answers[key];
    const envelope = handler ? await handler(call) : { code: 4004 };
    return new Response(JSON.stringify(envelope), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const provider = createFakeEip1193Provider({ chainId: testDappParam.chainId, accounts: [], grantAccounts: [financeAddress] });
  const storage = createDeskStorage({ removeItem: (key) => void store.delete(key) });
  const actors = createDeskActors({
    storage,
    loadProviders: async () => [{ id: 'io.metamask', name: 'MetaMask', provider }],
    watchProviders: () => () => undefined,
    site: { domain: 'desk.test', uri: 'http://desk.test' },
    fetchImpl,
    connectEagerly: false,
  });
  mounted.push(actors);
  const i18n = createI18n({ resources: englishResources, lng: 'en' });
  await i18n.init();
  const router = createMemoryRouter(deskRoutes, { initialEntries: [path] });
  const user = userEvent.setup();
  let result: RenderResult | undefined;
  await act(async () => {
    result = render(<DeskApp i18n={i18n} actors={actors} router={router} />);
    await Promise.resolve();
  });
  if (!result) throw new Error('the desk did not render');
  return { ...result, actors, router, provider, calls, store, user, answer: (key, handler) => void (answers[key] = handler) };
}
