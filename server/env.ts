/** The server's environment, validated once at start so a typo fails loudly instead of at the first request. */
import { metricsAllowList } from './metrics/route';
import { OPERATOR_ACT_STEPS } from './ops/operatorActSteps';
import { isIP } from 'node:net';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parsePublicUrls, parseSiweDomains } from './auth/signInSites';
import { PAYER_STEPS } from './chain/payer';
import { rpcUrlProblem } from './chain/rpcUrls';
import { wellKnownDevKeyIndex } from './chain/wellKnownKeys';

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

const PROXY_ADDR_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY: true, false, a hop count, or comma-separated addresses, CIDR ranges and proxy-addr names. */
function isTrustProxy(value: string): boolean {
  if (value === 'true' || value === 'false' || /^\d{1,2}$/.test(value)) return true;
  return value.split(',').every((entry) => {
    const [address = '', prefix, ...rest] = entry.trim().split('/');
    const prefixOk = prefix === undefined || /^\d{1,3}$/.test(prefix);
    return rest.length === 0 && prefixOk && (isIP(address) !== 0 || (prefix === undefined && PROXY_ADDR_NAMES.has(address)));
  });
}

/** Whether a parser of a list setting accepts the value (it throws on the first bad entry). */
function parses(parse: (value: string) => unknown[]): (value: string) => boolean {
  return (value) => {
    try {
      return parse(value).length > 0;
    } catch {
      return false;
    }
  };
}

/** Why a start with ADMIN_TOKEN fails, and what to do instead (docs/operations.md, "Operators"). */
export const ADMIN_TOKEN_GONE =
  'ADMIN_TOKEN is gone (X-Admin-Token opens nothing): unset it and make the first admin with OPS_FIRST_ADMIN=<address> or `npm run ops -- add <address> admin`';

/** A private key as PAYER_KEY and PAYER_KEY_FILE hold it. */
const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

export const envSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65_535).default(8080)),
  HOST: z.preprocess(emptyAsUndefined, z.string().min(1).default('0.0.0.0')),
  // The operators' desk on a port of its own, so an origin of its own; then PORT answers 404 for /ops and /api/admin.
  OPS_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(65_535).optional()),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).default('./data')),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL').optional()),
  // The tables' owner (docs/operations.md, "PostgreSQL roles"): the migrations run over it, then it grants
  // DATABASE_URL's role the rows the app works with and, on audit_log, only SELECT and INSERT. Unset, DATABASE_URL's
  // role does both.
  DATABASE_MIGRATION_URL: z.preprocess(emptyAsUndefined, z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_MIGRATION_URL must be a postgres:// URL').optional()),
  SIWE_DOMAIN: z.preprocess(
    emptyAsUndefined,
    z.string().refine(parses(parseSiweDomains), 'SIWE_DOMAIN must be one or more comma-separated host[:port]').optional(),
  ),
  PUBLIC_URL: z.preprocess(
    emptyAsUndefined,
    z.string().refine(parses(parsePublicUrls), 'PUBLIC_URL must be one or more comma-separated http(s) origins').optional(),
  ),
  // true trusts every hop (only safe when the proxy overwrites X-Forwarded-For); a number trusts that many hops
  // next to the server; a list trusts those proxy addresses, CIDR ranges or proxy-addr names (loopback, ...).
  TRUST_PROXY: z
    .preprocess(emptyAsUndefined, z.string().refine(isTrustProxy, 'TRUST_PROXY must be true, false, a hop count or proxy addresses').default('false'))
    .transform((value): boolean | number | string[] => {
      if (value === 'true' || value === 'false') return value === 'true';
      if (/^\d+$/.test(value)) return Number(value);
      return value.split(',').map((entry) => entry.trim());
    }),
  LOG_LEVEL: z.preprocess(emptyAsUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  // Removed: a shared token acting as an operator who is nobody in particular, so a leaked setting could move money.
  // Still set, the start fails, so that nobody believes it still opens the operator calls.
  ADMIN_TOKEN: z.preprocess(emptyAsUndefined, z.undefined({ error: ADMIN_TOKEN_GONE }).optional()),
  // The first admin (docs/operations.md, "Operators"): made an admin at start while there is no admin, audited as the
  // setting's act.
  OPS_FIRST_ADMIN: z.preprocess(emptyAsUndefined, z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'OPS_FIRST_ADMIN must be an address').optional()),
  // `production` refuses to start without a real chain (unless DEV_CHAIN=on).
  NODE_ENV: z.preprocess(emptyAsUndefined, z.string().optional()),
  // Credit on chain (docs/API.md): the node's JSON-RPC URLs (comma-separated, tried in order; https, or http to a loopback
  // host). Unset, the development chain runs when asked (developmentChainAsked).
  CHAIN_RPC_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .superRefine((value, context) => {
        for (const url of value.split(',')) {
          const problem = rpcUrlProblem(url.trim());
          if (problem) context.addIssue({ code: 'custom', message: `CHAIN_RPC_URL must be comma-separated http(s) URLs: ${problem}` });
        }
      })
      .transform((value) => value.split(',').map((url) => url.trim()))
      .optional(),
  ),
  // `on` runs the development chain even with NODE_ENV=production; `off` never runs it. Unset: it runs when no chain
  // setting is given and NODE_ENV is not production (a fresh clone's `npm start`).
  DEV_CHAIN: z.preprocess(emptyAsUndefined, z.enum(['on', 'off']).optional()),
  TOKEN_ADDRESS: z.preprocess(emptyAsUndefined, z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'TOKEN_ADDRESS must be an address').optional()),
  TREASURY_ADDRESS: z.preprocess(emptyAsUndefined, z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'TREASURY_ADDRESS must be an address').optional()),
  CONFIRMATIONS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(10_000).default(12)),
  // The first block the watcher reads on a real chain (the token's deployment or later); default: the head at the first start.
  TOP_UP_START_BLOCK: z.preprocess(emptyAsUndefined, z.coerce.bigint().min(0n).optional()),
  DEV_CHAIN_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65_535).default(8545)),
  // Seconds between the development chain's blocks (a decimal: 0.25 is four a second); tests and demos that wait on
  // depth shorten it. A real chain's pace is its own.
  DEV_CHAIN_BLOCK_TIME: z.preprocess(emptyAsUndefined, z.coerce.number().min(0.05).max(60).default(1)),
  // Sign-ins one instance works on at once; the rest of a rush waits its turn (server/routes/auth.ts).
  SIGN_INS_AT_ONCE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_024).optional()),
  // How often the payer and the top-up watcher look at the chain, in ms (default: payer 1000, watcher 2000).
  CHAIN_POLL_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(50).max(60_000).optional()),
  // The hot wallet that pays withdrawals (0x and 64 hex digits); unset on a real chain: nothing is paid, withdrawals
  // wait approved. The development chain's default is its own funded hot wallet (server/chain/devChain.ts); a real
  // chain refuses anvil's well-known keys (server/chain/wellKnownKeys.ts).
  PAYER_KEY: z.preprocess(emptyAsUndefined, z.string().regex(PRIVATE_KEY, 'PAYER_KEY must be 0x and 64 hex digits').optional()),
  // A member's withdrawals are approved on request while their auto-approved total of the UTC day stays within this
  // amount (a decimal, as the API's amounts); default 0 (all wait for an operator), 1000 on the development chain.
  AUTO_APPROVE_MAX: z.preprocess(emptyAsUndefined, z.string().regex(/^\d{1,12}(\.\d{1,6})?$/, 'AUTO_APPROVE_MAX must be an amount such as 100 or 12.5').optional()),
  // And while all members' auto-approved total of the UTC hour stays within this; default 10 × AUTO_APPROVE_MAX.
  AUTO_APPROVE_HOURLY: z.preprocess(emptyAsUndefined, z.string().regex(/^\d{1,12}(\.\d{1,6})?$/, 'AUTO_APPROVE_HOURLY must be an amount such as 1000 or 12.5').optional()),
  // Above this amount (CREDIT, a decimal) one act of an operator (a withdrawal's approval, a grant or deduction, a
  // release, a refund) needs a second operator (server/ops/policy.ts); default 1000.
  APPROVAL_QUORUM_ABOVE: z.preprocess(emptyAsUndefined, z.string().regex(/^\d{1,12}(\.\d{1,6})?$/, 'APPROVAL_QUORUM_ABOVE must be an amount such as 1000 or 12.5').optional()),
  // The operators' policy (server/ops/policy.ts; docs/API.md, "Operators: the policy"), per act: what one operator may
  // move alone in 24 hours (default 5 × APPROVAL_QUORUM_ABOVE), what may go to or from one member alone in 24 hours
  // (default APPROVAL_QUORUM_ABOVE), and what one act may move at all, whoever confirms (default 100 ×).
  OPS_OPERATOR_DAY_TOTAL: z.preprocess(emptyAsUndefined, z.string().regex(/^\d{1,15}(\.\d{1,6})?$/, 'OPS_OPERATOR_DAY_TOTAL must be an amount such as 5000').optional()),
  OPS_MEMBER_DAY_TOTAL: z.preprocess(emptyAsUndefined, z.string().regex(/^\d{1,15}(\.\d{1,6})?$/, 'OPS_MEMBER_DAY_TOTAL must be an amount such as 1000').optional()),
  OPS_ACT_CAP: z.preprocess(emptyAsUndefined, z.string().regex(/^\d{1,15}(\.\d{1,6})?$/, 'OPS_ACT_CAP must be an amount such as 100000').optional()),
  // `off` keeps this instance from paying (another one does; see docs/operations.md, "Credit on chain: paying
  // withdrawals").
  PAYER: z.preprocess(emptyAsUndefined, z.enum(['on', 'off']).default('on')),
  // What a start seeds (server/seed/seed.ts): `demo` (notices, goods, bots, share pools paying WPOS, the DEMO2026 root
  // inviter) or `minimal` (the app config and the root inviter at ROOT_INVITER_ADDRESS, nothing else: a real
  // deployment's content is its operators'). Default: minimal with NODE_ENV=production, demo otherwise.
  SEED: z.preprocess(emptyAsUndefined, z.enum(['demo', 'minimal']).optional()),
  // SEED=minimal's root inviter (the tree's top: every member's team leads up to it) and, optionally, its invite code
  // (else one is drawn at its first start and logged).
  ROOT_INVITER_ADDRESS: z.preprocess(emptyAsUndefined, z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'ROOT_INVITER_ADDRESS must be an address').optional()),
  ROOT_INVITE_CODE: z.preprocess(emptyAsUndefined, z.string().regex(/^[A-Za-z0-9]{4,16}$/, 'ROOT_INVITE_CODE must be 4 to 16 letters and digits').optional()),
  // The product owner's atlas at /atlas (docs/atlas): on unless NODE_ENV is production; `on` serves it there too.
  ATLAS: z.preprocess(emptyAsUndefined, z.enum(['on', 'off']).optional()),
  // Fault tests only: the payer's step at which the process kills itself (tests/server/payerCrash.test.ts).
  PAYER_FAULT_AT: z.preprocess(emptyAsUndefined, z.enum(PAYER_STEPS).optional()),
  // Fault tests only: the step of an operator's act at which the process kills itself (tests/server/operatorActCrash.test.ts).
  OPS_FAULT_AT: z.preprocess(emptyAsUndefined, z.enum(OPERATOR_ACT_STEPS).optional()),
  // Holders the share pools' payout pays per transaction (server/ledger/poolPayouts.ts); default 10,000.
  SHARE_POOL_PAYOUT_BATCH: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_000_000).optional()),
  // Fault tests only: the payout's step at which the process kills itself (tests/server/payoutCrash.test.ts).
  PAYOUT_FAULT_AT: z.preprocess(emptyAsUndefined, z.enum(['afterBatch']).optional()),
  // Health (docs/operations.md, "Health and stopping"): how old the chain's head, and the payer's and top-up watcher's
  // last successful rounds, may be while GET /api/health/ready answers 200; 0 reports them without failing readiness.
  READY_MAX_LAG_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(86_400_000).default(60_000)),
  // Metrics (docs/operations.md, "Metrics and alerts"): who may read GET /metrics, as addresses and CIDR ranges;
  // checked at start.
  METRICS_ALLOW: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .max(4_000)
      .superRefine((value, ctx) => {
        try {
          metricsAllowList(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : 'not an allow-list' });
        }
      })
      .optional(),
  ),
  // How often one instance (under the reconcile lease) runs reconcile and stores its verdict; default a minute.
  RECONCILE_EVERY_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1_000).max(86_400_000).optional()),
  // Alerts (docs/operations.md, "Metrics and alerts"): where each firing and resolving goes, signed with the secret.
  ALERT_WEBHOOK_URLS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .transform((value) => value.split(',').map((url) => url.trim()).filter((url) => url !== ''))
      .refine((urls) => urls.every((url) => /^https?:\/\/[^\s]+$/.test(url) && URL.canParse(url)), 'ALERT_WEBHOOK_URLS must be comma-separated http(s) URLs')
      .optional(),
  ),
  ALERT_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, 'ALERT_WEBHOOK_SECRET must be at least 32 characters').optional()),
  // The alert rules' thresholds (server/alerts/rules.ts).
  ALERT_RUNWAY_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(3650).optional()),
  ALERT_APPROVAL_WAIT_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(30 * 86_400).optional()),
  ALERT_WATCHER_BEHIND_BLOCKS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(1_000_000).optional()),
  ALERT_CHAIN_STALE_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(86_400).optional()),
  // On SIGTERM or SIGINT readiness answers 503 at once; requests are still served this long (the balancer's time to
  // see it: its check interval times its fall count), then the server stops taking new ones.
  SHUTDOWN_DRAIN_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(600_000).default(0)),
  // After the drain, how long the requests under way and the payer's and watcher's rounds may take to end; past it
  // the process exits with code 1 (what was not committed is rolled back).
  SHUTDOWN_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1_000).max(600_000).default(25_000)),
}).superRefine((env, context) => {
  for (const issue of chainSettingIssues(env)) context.addIssue({ code: 'custom', ...issue });
  // PGlite has one role: an owner's URL beside it would promise privileges nothing enforces.
  if (env.DATABASE_MIGRATION_URL !== undefined && env.DATABASE_URL === undefined) {
    context.addIssue({ code: 'custom', path: ['DATABASE_MIGRATION_URL'], message: 'DATABASE_MIGRATION_URL is the owner of DATABASE_URL\'s tables: set DATABASE_URL too' });
  }
  if (env.ALERT_WEBHOOK_URLS !== undefined && env.ALERT_WEBHOOK_SECRET === undefined) {
    context.addIssue({ code: 'custom', path: ['ALERT_WEBHOOK_SECRET'], message: 'ALERT_WEBHOOK_URLS needs ALERT_WEBHOOK_SECRET: every call is signed with it' });
  }
  if (env.OPS_PORT !== undefined && env.OPS_PORT === env.PORT) context.addIssue({ code: 'custom', path: ['OPS_PORT'], message: 'OPS_PORT must differ from PORT' });
  if (seedKind(env) === 'minimal' && env.ROOT_INVITER_ADDRESS === undefined) {
    const why = env.SEED === 'minimal' ? 'SEED=minimal' : 'NODE_ENV=production seeds minimal content (SEED=demo for the demo)';
    context.addIssue({ code: 'custom', path: ['ROOT_INVITER_ADDRESS'], message: `${why}: set ROOT_INVITER_ADDRESS, the root inviter's address` });
  }
});

/**
 * What a start seeds: SEED when set, else minimal in production on a real chain and the demo elsewhere (the
 * development chain's content is the demo's, whatever NODE_ENV says).
 *
 * @param env - the settings (SEED, NODE_ENV and the chain's)
 * @returns 'demo' or 'minimal'
 * @example
 * seedKind(readEnv({ NODE_ENV: 'production', CHAIN_RPC_URL, TOKEN_ADDRESS, TREASURY_ADDRESS, ROOT_INVITER_ADDRESS })); // 'minimal'
 */
export function seedKind(env: ChainFields & Pick<ServerEnv, 'SEED'>): 'demo' | 'minimal' {
  return env.SEED ?? (env.NODE_ENV === 'production' && !developmentChainAsked(env) ? 'minimal' : 'demo');
}

export type ServerEnv = z.infer<typeof envSchema>;

/** What a real chain needs, all of it. */
const CHAIN_SETTINGS = ['CHAIN_RPC_URL', 'TOKEN_ADDRESS', 'TREASURY_ADDRESS'] as const;

type ChainFields = Pick<ServerEnv, (typeof CHAIN_SETTINGS)[number] | 'NODE_ENV' | 'DEV_CHAIN' | 'PAYER_KEY'>;

/**
 * Whether the server runs its development chain (server/chain/devChain.ts): only when asked, with DEV_CHAIN=on, or
 * with no chain setting at all outside production (`npm ci && npm start` on a fresh clone).
 *
 * @param env - the validated environment
 * @returns true to start the development chain
 * @example
 * developmentChainAsked(readEnv({})); // true
 */
export function developmentChainAsked(env: ChainFields): boolean {
  if (CHAIN_SETTINGS.some((name) => env[name] !== undefined) || env.DEV_CHAIN === 'off') return false;
  return env.DEV_CHAIN === 'on' || env.NODE_ENV !== 'production';
}

/** Fail closed: a chain the settings leave unclear, or a real one with a key anyone holds, does not start. */
function chainSettingIssues(env: ChainFields): { path: string[]; message: string }[] {
  const given = CHAIN_SETTINGS.filter((name) => env[name] !== undefined);
  const missing = CHAIN_SETTINGS.filter((name) => env[name] === undefined);
  const needs = `a real chain needs ${CHAIN_SETTINGS.join(', ')}`;
  if (given.length > 0 && missing.length > 0) {
    return [{ path: [missing[0] ?? 'CHAIN_RPC_URL'], message: `${needs}; missing: ${missing.join(', ')} (set: ${given.join(', ')})` }];
  }
  if (given.length === 0) {
    if (developmentChainAsked(env)) return [];
    const why = env.DEV_CHAIN === 'off' ? 'DEV_CHAIN is off' : 'NODE_ENV is production';
    return [{ path: ['CHAIN_RPC_URL'], message: `${why}, so ${needs}; missing: ${missing.join(', ')} (the development chain runs only outside production, or with DEV_CHAIN=on)` }];
  }
  const issues: { path: string[]; message: string }[] = [];
  if (env.DEV_CHAIN === 'on') issues.push({ path: ['DEV_CHAIN'], message: 'DEV_CHAIN=on runs the development chain, but CHAIN_RPC_URL names a real one: set only one' });
  const devKey = env.PAYER_KEY === undefined ? undefined : wellKnownDevKeyIndex(env.PAYER_KEY);
  if (devKey !== undefined) {
    issues.push({ path: ['PAYER_KEY'], message: `PAYER_KEY is anvil's well-known development key (account ${devKey} of its default mnemonic): anyone can spend from it, so a real chain refuses it` });
  }
  return issues;
}

/**
 * PAYER_KEY read from PAYER_KEY_FILE when that is set (systemd's LoadCredential: `PAYER_KEY_FILE=%d/payer-key`), so
 * the key need not sit in the environment, where every child process and /proc/<pid>/environ see it.
 *
 * @param source - the environment
 * @returns it, with PAYER_KEY from the file
 * @throws Error "Invalid environment: PAYER_KEY_FILE: ..." when both are set or the file cannot be read
 * @example
 * const source = withPayerKeyFile(process.env);
 */
export function withPayerKeyFile(source: Record<string, string | undefined>): Record<string, string | undefined> {
  const file = source.PAYER_KEY_FILE?.trim();
  if (!file) return source;
  if (source.PAYER_KEY?.trim()) throw new Error('Invalid environment: PAYER_KEY_FILE: set PAYER_KEY or PAYER_KEY_FILE, not both');
  let key: string;
  try {
    key = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new Error(`Invalid environment: PAYER_KEY_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  if (!PRIVATE_KEY.test(key)) throw new Error(`Invalid environment: PAYER_KEY_FILE: ${file} must hold 0x and 64 hex digits (one line)`);
  return { ...source, PAYER_KEY: key };
}

/**
 * Whether /atlas is served: ATLAS when set, else everywhere but production (the atlas shows every screen and flow,
 * which a public deployment need not publish).
 *
 * @param env - the validated environment
 * @returns true to serve it
 * @example
 * const atlasDir = atlasServed(env) ? undefined : null;
 */
export function atlasServed(env: Pick<ServerEnv, 'ATLAS' | 'NODE_ENV'>): boolean {
  return env.ATLAS === undefined ? env.NODE_ENV !== 'production' : env.ATLAS === 'on';
}

/**
 * Reads and validates the environment.
 *
 * @param source - usually process.env (PAYER_KEY_FILE read into PAYER_KEY)
 * @returns the typed settings with defaults applied
 * @throws Error listing every invalid variable
 * @example
 * const env = readEnv(process.env); // { PORT: 8080, HOST: '0.0.0.0', DATA_DIR: './data', ... }
 */
export function readEnv(source: Record<string, string | undefined>): ServerEnv {
  const parsed = envSchema.safeParse(withPayerKeyFile(source));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}
