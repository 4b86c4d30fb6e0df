/**
 * A fake of the reference API at the HTTP boundary: a `fetch` that answers each endpoint of api-schema with an
 * envelope the test scripts, fails like a network error, or holds the call until the test releases it. Unscripted
 * endpoints answer 4004, so a screen that calls something unexpected shows it instead of hanging.
 */
import { waitFor } from '@testing-library/react';
import { dappParamSchema } from '../../api-schema/dapp';
import type { DappParam } from '../../api-schema/dapp';
import { endpoints } from '../../api-schema/endpoints';
import type { EndpointName } from '../../api-schema/endpoints';
import type { MeInfo } from '../../api-schema/member';
import { nonceAnswer } from '../../scripts/machineGraph/auth.model';
import { accountA, bscChainParams } from '../../scripts/machineGraph/wallet.model';

/** What the server sends: docs/API.md "Envelope". */
export interface Envelope {
  code: number;
  message?: string;
  result?: unknown;
}

/** One request the app sent. */
export interface ApiCall {
  endpoint: EndpointName | null;
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  /** The Authorization header, or null. */
  authorization: string | null;
}

/** A call held until the test answers it. */
export interface HeldApiCall extends ApiCall {
  answer(envelope: Envelope): void;
  /** The fetch rejects, as it does when the network is down (the client reads it as -1). */
  failNetwork(): void;
}

type Script = { kind: 'answer'; envelope: Envelope } | { kind: 'network' } | { kind: 'hold' };

export interface FakeApi {
  /** The fetch to hand to createRootActors. */
  fetch: typeof fetch;
  /** Every call, in order. */
  readonly calls: ApiCall[];
  /** The calls to one endpoint. */
  callsTo(endpoint: EndpointName): ApiCall[];
  /** Answers `endpoint` with `envelope` (every time, or once before the standing answer). */
  answer(endpoint: EndpointName, envelope: Envelope, options?: { once?: boolean }): void;
  /** Fails `endpoint` like a dropped connection. */
  failNetwork(endpoint: EndpointName, options?: { once?: boolean }): void;
  /** Holds every call to `endpoint` (or the next one) until the test answers it through `next`. */
  hold(endpoint: EndpointName, options?: { once?: boolean }): void;
  /** Waits for the newest unanswered held call to `endpoint` and hands it over. */
  next(endpoint: EndpointName): Promise<HeldApiCall>;
  /** Fails every held call still open (test clean-up). */
  releaseAll(): void;
}

/** App config for BNB Smart Chain (chain 56), valid against the contract. */
export const testDappParam: DappParam = dappParamSchema.parse({
  chainId: 56,
  chain: bscChainParams,
  minWithdraw: '10',
  maxWithdraw: '10000',
  withdrawFee: '1',
  dailyWithdrawCap: '50000',
  exchangeRate: '1',
  minTransfer: '1',
  siweDomain: 'localhost',
  siweStatement: 'Sign in to Member DApp.',
});

/**
 * The meInfo record of a member, valid against the contract.
 *
 * @param address - The member's address.
 * @returns A complete MeInfo.
 */
export function testMeInfo(address: string = accountA): MeInfo {
  return {
    address,
    inviteCode: 'AB12CD34',
    recommender: null,
    level: 0,
    creditBalance: '12.5',
    wposBalance: '3',
    teamSize: 2,
    directCount: 1,
    createdAt: '2026-11-01T08:00:00.000Z',
  };
}

const defaultAnswers: Partial<Record<EndpointName, Envelope>> = {
  dappParam: { code: 0, result: testDappParam },
  loginNonce: { code: 0, result: nonceAnswer },
  memberSignLogin: { code: 0, result: { auth: 'token-bound', isFinishedBind: true } },
  bindRecommendRelation: { code: 0 },
  meInfo: { code: 0, result: testMeInfo() },
  logout: { code: 0 },
  queryPagePlatformNotice: { code: 0, result: { list: [], total: 0, page: 1, pageSize: 1 } },
};

const endpointByRoute = new Map<string, EndpointName>(
  (Object.entries(endpoints) as [EndpointName, { method: string; path: string }][]).map(([name, endpoint]) => [
    `${endpoint.method} ${endpoint.path}`,
    name,
  ]),
);

function urlOf(input: RequestInfo | URL): URL {
  const text = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return new URL(text, 'http://localhost');
}

function headerOf(init: RequestInit | undefined, name: string): string | null {
  const headers = new Headers(init?.headers);
  return headers.get(name);
}

function jsonResponse(envelope: Envelope): Response {
  return new Response(JSON.stringify(envelope), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

function networkError(): TypeError {
  return new TypeError('Failed to fetch');
}

/**
 * Creates the fake API.
 *
 * @returns The fetch and its controls; every endpoint starts with a successful answer.
 * @example
 * const api = createFakeApi();
 * api.hold('loginNonce');
 * (await api.next('loginNonce')).answer({ code: 4290 });
 */
export function createFakeApi(): FakeApi {
  const scripts = new Map<EndpointName, { script: Script; once: boolean }[]>();
  const calls: ApiCall[] = [];
  const held: (HeldApiCall & { open: boolean; taken: boolean })[] = [];

  const setScript = (endpoint: EndpointName, script: Script, once = false) => {
    const queue = scripts.get(endpoint) ?? [];
    const oneOffs = queue.filter((entry) => entry.once);
    scripts.set(endpoint, once ? [...oneOffs, { script, once }, ...queue.filter((entry) => !entry.once)] : [...oneOffs, { script, once }]);
  };

  const scriptFor = (endpoint: EndpointName | null): Script => {
    if (endpoint === null) return { kind: 'answer', envelope: { code: 4004 } };
    const queue = scripts.get(endpoint);
    const entry = queue?.[0];
    if (queue && entry) {
      if (entry.once) queue.shift();
      return entry.script;
    }
    return { kind: 'answer', envelope: defaultAnswers[endpoint] ?? { code: 4004 } };
  };

  const fakeFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = urlOf(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    const endpoint = endpointByRoute.get(`${method} ${url.pathname}`) ?? null;
    const call: ApiCall = {
      endpoint,
      method,
      path: url.pathname,
      query: url.searchParams,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      authorization: headerOf(init, 'Authorization'),
    };
    calls.push(call);
    const script = scriptFor(endpoint);
    if (script.kind === 'answer') return jsonResponse(script.envelope);
    if (script.kind === 'network') throw networkError();
    return new Promise<Response>((resolve, reject) => {
      const entry = {
        ...call,
        open: true,
        taken: false,
        answer: (envelope: Envelope) => {
          entry.open = false;
          resolve(jsonResponse(envelope));
        },
        failNetwork: () => {
          entry.open = false;
          reject(networkError());
        },
      };
      held.push(entry);
      init?.signal?.addEventListener('abort', () => {
        entry.open = false;
        reject(new DOMException('The operation was aborted.', 'AbortError'));
      });
    });
  };

  return {
    fetch: fakeFetch as typeof fetch,
    calls,
    callsTo: (endpoint) => calls.filter((call) => call.endpoint === endpoint),
    answer: (endpoint, envelope, { once = false } = {}) => setScript(endpoint, { kind: 'answer', envelope }, once),
    failNetwork: (endpoint, { once = false } = {}) => setScript(endpoint, { kind: 'network' }, once),
    hold: (endpoint, { once = false } = {}) => setScript(endpoint, { kind: 'hold' }, once),
    async next(endpoint) {
      const found = await waitFor(
        () => {
          // The newest: a call the app gave up on (a cancelled sign-in) stays open, as on a slow network.
          const entry = held.findLast((call) => call.endpoint === endpoint && call.open && !call.taken);
          if (!entry) throw new Error(`no held ${endpoint} call: the app has not sent it`);
          return entry;
        },
        { interval: 5 },
      );
      found.taken = true;
      return found;
    },
    releaseAll() {
      for (const entry of held) if (entry.open) entry.failNetwork();
    },
  };
}
