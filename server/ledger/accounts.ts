/**
 * The ledger's accounts (docs/decisions/0010-ledger.md): one per member and asset, created at the member's first
 * movement, and the system accounts of each asset with fixed ids below 1000, so a statement names them without a
 * lookup. Migration 0002 and the seed create the system accounts; nothing else writes their rows.
 */
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ledgerAccounts } from '../db/schema';

export const ASSETS = ['CREDIT', 'WPOS'] as const;
export type Asset = (typeof ASSETS)[number];

/** `chain` and `held_top_ups` are credit on chain's (migration 0014): top-ups come from `chain`, or wait in `held_top_ups`. */
/** `write_offs` (migration 0031): what operators wrote off of a payment the database never knew (the house's loss). */
export const SYSTEM_KINDS = ['issuance', 'fees', 'withdrawals_payable', 'exchange', 'pools', 'sales', 'chain', 'held_top_ups', 'write_offs'] as const;
export type SystemKind = (typeof SYSTEM_KINDS)[number];

const ASSET_BASE: Record<Asset, number> = { CREDIT: 0, WPOS: 10 };

/**
 * The fixed id of a system account: CREDIT 1..9, WPOS 11..19 in the order of SYSTEM_KINDS.
 *
 * @param asset - CREDIT or WPOS
 * @param kind - the account's role
 * @returns the account id
 * @example
 * systemAccountId('CREDIT', 'fees'); // 2
 */
export function systemAccountId(asset: Asset, kind: SystemKind): number {
  return ASSET_BASE[asset] + SYSTEM_KINDS.indexOf(kind) + 1;
}

/**
 * The issuance accounts: the only system accounts that may go below zero, since value starts there. CREDIT comes from
 * the chain (a top-up, matched by tokens in the treasury) or from issuance (an operator's grant under the policy);
 * WPOS from issuance (grants, pool funding) or from the exchange (bought with CREDIT).
 */
export const ISSUANCE_ACCOUNTS: readonly { asset: Asset; kind: SystemKind }[] = [
  { asset: 'CREDIT', kind: 'issuance' },
  { asset: 'CREDIT', kind: 'chain' },
  { asset: 'WPOS', kind: 'issuance' },
  { asset: 'WPOS', kind: 'exchange' },
  // Not a source of value: a write-off records what left on chain that no member's credit paid for.
  { asset: 'CREDIT', kind: 'write_offs' },
  { asset: 'WPOS', kind: 'write_offs' },
];

/**
 * The system accounts that finance funds (POST /api/admin/fund), by their contract name: the share pools pay WPOS that
 * finance funded, and WPOS exchanges back to CREDIT only as far as CREDIT came in or finance funded it.
 */
export const FUNDED_ACCOUNTS = {
  sharePools: { asset: 'WPOS', kind: 'pools' },
  exchangeCredit: { asset: 'CREDIT', kind: 'exchange' },
} as const satisfies Record<string, { asset: Asset; kind: SystemKind }>;

export type FundedAccount = keyof typeof FUNDED_ACCOUNTS;

const isIssuance = (asset: Asset, kind: SystemKind) => ISSUANCE_ACCOUNTS.some((account) => account.asset === asset && account.kind === kind);

/**
 * Every system account row, for the seed. Every one but the issuance accounts pays only what was put in
 * (ledger_accounts.funded): the engine keeps its balance and never takes it below zero (migrations 0026, 0029).
 */
export const SYSTEM_ACCOUNTS = ASSETS.flatMap((asset) => SYSTEM_KINDS.map((kind) => ({ id: systemAccountId(asset, kind), asset, kind, funded: !isIssuance(asset, kind) })));

/**
 * Creates the system accounts that are missing (the seed calls it; migration 0002 created them already, but a test
 * reset truncates the ledger).
 *
 * @param db - database or transaction handle
 * @returns when done
 * @example
 * await ensureSystemAccounts(tx);
 */
export async function ensureSystemAccounts(db: Db): Promise<void> {
  const existing = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, SYSTEM_ACCOUNTS.map((account) => account.id)));
  if (existing.length === SYSTEM_ACCOUNTS.length) return;
  await db.insert(ledgerAccounts).values(SYSTEM_ACCOUNTS).onConflictDoNothing();
}
