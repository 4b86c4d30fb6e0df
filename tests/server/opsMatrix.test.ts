/**
 * The authorization matrix (OWASP ASVS V4: deny by default, authorization on every call, tested as a matrix): every
 * route the app registers under /api/admin × every credential an operator call can meet → allowed or denied, as the
 * table below says. "Allowed" means the access hook let the call through: any answer but 1002 or 1006 (a probe body
 * fails validation with 1001, a call that needs a chain answers 4004; neither changes anything). "Denied" is exactly
 * 1002 (no valid operator credential) or 1006 (a credential without the role). A registered /api/admin route without
 * a row here fails the test, and so does a row for a route that is gone: a new call needs its rule first.
 */
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { privateKeyToAccount } from 'viem/accounts';
import { expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { operatorRoles, type OperatorRole } from '../../api-schema/endpoint';
import { describeWithDatabases } from './support/harness';
import { addOperator, bearer, createKey, signInOperator } from './support/testOperators';
import { accounts, signInBound } from './support/memberSignIn';

/** Who may make a call: anyone, any operator, or an operator holding one of these roles (admin always may). */
type Rule = { who: 'public' } | { who: 'operator' } | { who: OperatorRole[] };
/** Only a person signed in at the desk (a session), never an API key (answered 1006). */
type Expected = Rule & { sessionOnly?: true };

const anyone: Expected = { who: 'public' };
const operator: Expected = { who: 'operator' };
const finance: Expected = { who: ['finance'] };
const financeOrSupport: Expected = { who: ['finance', 'support'] };
const admin: Expected = { who: ['admin'] };
const content: Expected = { who: ['content'] };
const support: Expected = { who: ['support'] };
const contentOrFinance: Expected = { who: ['content', 'finance'] };

/** The table: every operator route, by method and path. */
const EXPECTED: Record<string, Expected> = {
  // Identity (docs/API.md, "Operators").
  'GET /api/admin/auth/nonce': anyone,
  'POST /api/admin/auth/signIn': anyone,
  'GET /api/admin/me': operator,
  'POST /api/admin/auth/logout': operator,
  'GET /api/admin/operators': admin,
  'POST /api/admin/operators/put': { ...admin, sessionOnly: true },
  'POST /api/admin/operators/remove': { ...admin, sessionOnly: true },
  'GET /api/admin/operators/changes': admin,
  'POST /api/admin/operators/confirm': { ...admin, sessionOnly: true },
  'POST /api/admin/operators/cancel': { ...admin, sessionOnly: true },
  'GET /api/admin/keys': operator,
  'POST /api/admin/keys/create': { ...operator, sessionOnly: true },
  'POST /api/admin/keys/revoke': { ...operator, sessionOnly: true },
  'GET /api/admin/audit': admin,
  'GET /api/admin/audit.csv': admin,
  // Money and the chain.
  'POST /api/admin/grant': finance,
  'POST /api/admin/withdrawal/decide': finance,
  'GET /api/admin/ledger': finance,
  'GET /api/admin/reconcile': finance,
  'GET /api/admin/alerts': operator,
  'GET /api/admin/overview': operator,
  'POST /api/admin/distribute': finance,
  'POST /api/admin/topUps/reread': finance,
  'GET /api/admin/topUps/held': finance,
  'POST /api/admin/topUps/release': finance,
  'POST /api/admin/topUps/return': finance,
  'POST /api/admin/payer/recover': finance,
  'POST /api/admin/unknownPayments/settle': finance,
  'POST /api/admin/payouts/resume': finance,
  'GET /api/admin/withdrawals': finance,
  'POST /api/admin/withdrawals/approve': finance,
  'GET /api/admin/member': financeOrSupport,
  'GET /api/admin/members': financeOrSupport,
  'POST /api/admin/member/signOut': financeOrSupport,
  'POST /api/admin/member/freeze': financeOrSupport,
  'POST /api/admin/adjust': finance,
  'POST /api/admin/adjust/confirm': finance,
  'GET /api/admin/adjust/pending': finance,
  // The operators' policy (docs/API.md, "Operators: the policy").
  'GET /api/admin/policy': operator,
  'POST /api/admin/fund': finance,
  'GET /api/admin/config/money': finance,
  'POST /api/admin/config/money': finance,
  // Content (docs/API.md, "Operators: content").
  'GET /api/admin/content/notices': content,
  'POST /api/admin/content/notices/put': content,
  'POST /api/admin/content/notices/publish': content,
  'GET /api/admin/content/about': content,
  'POST /api/admin/content/about/put': content,
  'GET /api/admin/content/goods': content,
  'POST /api/admin/content/goods/put': content,
  'GET /api/admin/content/pools': content,
  // A pool's daily amount is money: finance may set it, content only name a pool and its minimum (the policy).
  'POST /api/admin/content/pools/put': contentOrFinance,
  'GET /api/admin/content/bots': content,
  'POST /api/admin/content/bots/put': content,
  // Orders (docs/API.md, "Operators: orders").
  'GET /api/admin/orders': support,
  'POST /api/admin/orders/ship': support,
  'POST /api/admin/orders/cancel': support,
};

type Credential =
  | { kind: 'session' | 'apiKey'; role: OperatorRole; headers: Record<string, string> }
  | { kind: 'xAdminToken' | 'member' | 'expiredSession' | 'sessionAsBearer' | 'sessionWithoutCsrf' | 'revokedKey' | 'none'; headers: Record<string, string> };

/** What a credential gets on a call: allowed, or the exact refusal. */
function expectedAnswer(rule: Expected, credential: Credential, method: string): 'allowed' | typeof ApiCode.notSignedIn | typeof ApiCode.roleRequired {
  if (rule.who === 'public') return 'allowed';
  const refused: Credential['kind'][] = ['xAdminToken', 'member', 'expiredSession', 'sessionAsBearer', 'revokedKey', 'none'];
  if (refused.includes(credential.kind)) return ApiCode.notSignedIn;
  // An admin's session cookie without the CSRF header: reads go on, changes are refused.
  if (credential.kind === 'sessionWithoutCsrf' && method !== 'GET') return ApiCode.roleRequired;
  const roles: readonly OperatorRole[] = 'role' in credential ? [credential.role] : ['admin'];
  const holds = rule.who === 'operator' || roles.includes('admin') || rule.who.some((role) => roles.includes(role));
  if (!holds) return ApiCode.roleRequired;
  if (rule.sessionOnly && credential.kind !== 'session' && credential.kind !== 'sessionWithoutCsrf') return ApiCode.roleRequired;
  return 'allowed';
}

function answerOf(response: LightMyRequestResponse): 'allowed' | number {
  if (!String(response.headers['content-type']).startsWith('application/json')) return 'allowed';
  const { code } = response.json<{ code: number }>();
  return code === ApiCode.notSignedIn || code === ApiCode.roleRequired ? code : 'allowed';
}

/** One key per operator: fixed, so addresses are stable (never use them for anything real). */
const operatorWallets: Record<OperatorRole, ReturnType<typeof privateKeyToAccount>> = {
  finance: privateKeyToAccount(`0x${'a1'.repeat(32)}`),
  support: privateKeyToAccount(`0x${'a2'.repeat(32)}`),
  content: privateKeyToAccount(`0x${'a3'.repeat(32)}`),
  admin: privateKeyToAccount(`0x${'a4'.repeat(32)}`),
};

describeWithDatabases('the operators’ authorization matrix', (ctx) => {
  it('answers every registered operator route × every credential as the table says, and the table names every route', { timeout: 120_000 }, async () => {
    const registered = new Set<string>();
    const app = await ctx.app({
      onRoute: (route: RouteOptions) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) if (method !== 'HEAD' && route.url.startsWith('/api/admin')) registered.add(`${method} ${route.url}`);
      },
    });
    await app.ready();
    // Deny by default: a route without a rule, or a rule without its route, is a failure to fix first.
    expect([...registered].filter((route) => !(route in EXPECTED)), 'registered /api/admin routes without a row in EXPECTED').toEqual([]);
    expect(Object.keys(EXPECTED).filter((route) => !registered.has(route)), 'rows of EXPECTED whose route is not registered').toEqual([]);

    // An expired session first (12 hours later it is dead), then everyone else.
    for (const role of operatorRoles) await addOperator(ctx.db, operatorWallets[role].address, [role]);
    const expired = await signInOperator(app, operatorWallets.admin, ctx.clock.now());
    ctx.clock.advance(12 * 60 * 60 * 1000 + 1000);
    const credentials: Credential[] = [];
    for (const role of operatorRoles) {
      const { headers } = await signInOperator(app, operatorWallets[role], ctx.clock.now());
      credentials.push({ kind: 'session', role, headers });
      credentials.push({ kind: 'apiKey', role, headers: bearer((await createKey(app, headers, [role], `matrix ${role}`)).key) });
    }
    const adminSession = await signInOperator(app, operatorWallets.admin, ctx.clock.now());
    const revoked = await createKey(app, adminSession.headers, ['admin'], 'matrix revoked');
    await app.inject({ method: 'POST', url: '/api/admin/keys/revoke', headers: adminSession.headers, payload: { id: revoked.id } });
    credentials.push(
      // The removed ADMIN_TOKEN's header opens nothing, whatever it holds.
      { kind: 'xAdminToken', headers: { 'x-admin-token': 'test-admin-token-0123456789abcdef0123' } },
      { kind: 'member', headers: bearer(await signInBound(app, accounts.alice, ctx.clock.now())) },
      { kind: 'expiredSession', headers: expired.headers },
      { kind: 'sessionAsBearer', headers: bearer(adminSession.token) },
      { kind: 'sessionWithoutCsrf', headers: { cookie: adminSession.headers.cookie ?? '' } },
      { kind: 'revokedKey', headers: bearer(revoked.key) },
      { kind: 'none', headers: {} },
    );

    const mismatches: string[] = [];
    for (const route of [...registered].sort()) {
      const [method = 'GET', url = ''] = route.split(' ');
      const rule = EXPECTED[route];
      if (!rule) continue;
      const answers = await Promise.all(
        credentials.map((credential) =>
          app.inject({
            method: method as 'GET' | 'POST',
            url,
            headers: { ...credential.headers, host: 'member.test' },
            // A body no call accepts: an allowed call stops at validation (1001) and changes nothing.
            ...(method === 'POST' ? { payload: { matrixProbe: true } } : {}),
          }),
        ),
      );
      answers.forEach((response, index) => {
        const credential = credentials[index];
        if (!credential) return;
        const want = expectedAnswer(rule, credential, method);
        const got = answerOf(response);
        if (got !== want) mismatches.push(`${route} with ${credential.kind}${'role' in credential ? `:${credential.role}` : ''}: expected ${want}, got ${got} (${response.body.slice(0, 120)})`);
      });
    }
    expect(mismatches).toEqual([]);
    // The matrix's size, for the closing note: routes × credentials.
    console.info(`authorization matrix: ${registered.size} routes × ${credentials.length} credentials = ${registered.size * credentials.length} calls`);
  });
});
