/** The server's environment, validated once at start so a typo fails loudly instead of at the first request. */
import { z } from 'zod';
import { parsePublicUrls, parseSiweDomains } from './auth/signInSites';

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

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
  TRUST_PROXY: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('false')).transform((value) => value === 'true'),
  LOG_LEVEL: z.preprocess(emptyAsUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
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
