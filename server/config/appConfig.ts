/**
 * The app config row (chain, limits, sign-in statement). Its shape is the contract's dappParam less siweDomain,
 * which depends on where the server is reached and is filled in per request, and withdrawalsPaused, the payer's.
 */
import { eq } from 'drizzle-orm';
import * as z from 'zod/mini';
import { dappParamSchema } from '../../api-schema/dapp';
import type { Db } from '../db/client';
import { appConfig } from '../db/schema';

export const appConfigSchema = z.omit(dappParamSchema, { siweDomain: true, withdrawalsPaused: true });
export type AppConfig = z.infer<typeof appConfigSchema>;

/**
 * Reads and validates the app config.
 *
 * @param db - database handle
 * @returns the config
 * @throws Error when the row is missing or malformed (the database was not seeded: an internal error)
 * @example
 * const { chainId } = await getAppConfig(db);
 */
export async function getAppConfig(db: Db): Promise<AppConfig> {
  return appConfigSchema.parse(await storedValue(db));
}

/** The row's value as stored (not checked yet). */
async function storedValue(db: Db): Promise<unknown> {
  const [row] = await db.select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.id, 1));
  if (!row) throw new Error('app_config is empty: run the seed');
  return row.value;
}

/** The app config, and the row's value as stored (JSON text) that it was parsed from. */
export interface StoredAppConfig {
  config: AppConfig;
  stored: string;
}

/**
 * Reads the app config with its stored value, for a reader that keeps it and lets the database say when it changed
 * (the ledger batcher: engine.sql's ledger_post refuses a batch built from a value the row no longer holds).
 *
 * @param db - database handle
 * @returns the config and the JSON it was parsed from
 * @throws Error when the row is missing or malformed
 * @example
 * const { config, stored } = await getStoredAppConfig(db);
 */
export async function getStoredAppConfig(db: Db): Promise<StoredAppConfig> {
  const value = await storedValue(db);
  return { config: appConfigSchema.parse(value), stored: JSON.stringify(value) };
}

/**
 * Writes the chain's part of the app config at start (server/main.ts): the chain id and wallet_addEthereumChain
 * parameters of the development chain, and on any chain the token, treasury and confirmations dappParam announces.
 * Other fields keep what the row holds.
 *
 * @param db - database handle
 * @param patch - the fields to set
 * @returns when written
 * @example
 * await patchAppConfig(db, { token, treasury, confirmations: 12 });
 */
export async function patchAppConfig(db: Db, patch: Partial<AppConfig>): Promise<void> {
  const current = appConfigSchema.parse(await storedValue(db));
  const next = appConfigSchema.parse({ ...current, ...patch });
  await db.update(appConfig).set({ value: next }).where(eq(appConfig.id, 1));
}
