/** The server's environment, validated once at start so a typo fails loudly instead of at the first request. */
import { isIP } from 'node:net';
import { z } from 'zod';
import { parsePublicUrls, parseSiweDomains } from './auth/signInSites';

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

export const envSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65_535).default(8080)),
  HOST: z.preprocess(emptyAsUndefined, z.string().min(1).default('0.0.0.0')),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).default('./data')),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL').optional()),
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
  // Enables the operator API (API.md, "Operations"); unset, its paths answer 4004.
  ADMIN_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(32, 'ADMIN_TOKEN must be at least 32 characters').optional()),
});

export type ServerEnv = z.infer<typeof envSchema>;

/**
 * Reads and validates the environment.
 *
 * @param source - usually process.env
 * @returns the typed settings with defaults applied
 * @throws Error listing every invalid variable
 * @example
 * const env = readEnv(process.env); // { PORT: 8080, HOST: '0.0.0.0', DATA_DIR: './data', ... }
 */
export function readEnv(source: Record<string, string | undefined>): ServerEnv {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}
