/**
 * The fees the payer offers (docs/decisions/0019-withdrawals-paid-on-chain.md): a new payment's over the latest base
 * fee, and when a sent one is stuck, its replacement's.
 */
import type { PublicClient } from 'viem';

export interface Fees {
  baseFee: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** The fees a new payment offers over a block's base fee: twice the base fee and a 1 gwei tip. */
export function feesOver(baseFee: bigint): Fees {
  const maxPriorityFeePerGas = 1_000_000_000n;
  return { baseFee, maxPriorityFeePerGas, maxFeePerGas: baseFee * 2n + maxPriorityFeePerGas };
}

/**
 * The fees over the latest block's base fee.
 *
 * @param client - the chain's client
 * @returns the fees a new payment offers now
 * @example
 * const fee = await currentFees(chain.client);
 */
export async function currentFees(client: PublicClient): Promise<Fees> {
  const block = await client.getBlock({ blockTag: 'latest' });
  return feesOver(block.baseFeePerGas ?? 0n);
}

/** Fee raised by 12.5 %, rounded up: more than the 10 % nodes ask of a replacement. */
const raised = (fee: bigint) => (fee * 9n + 7n) / 8n;
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** The latest attempt's fees as stored. */
export interface OfferedFees {
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  createdAt: Date;
}

/**
 * Whether the latest attempt is stuck: unmined `stuckAfterMs` and the base fee past what it offers.
 *
 * @param latest - the latest attempt's fees and when it was signed
 * @param fee - the fees now
 * @param now - the payer's clock
 * @param stuckAfterMs - how long it may wait
 * @returns true when it is to be replaced
 * @example
 * if (isStuck(latest, fee, now, 30_000)) replace();
 */
export function isStuck(latest: OfferedFees, fee: Fees, now: Date, stuckAfterMs: number): boolean {
  return now.getTime() - latest.createdAt.getTime() >= stuckAfterMs && fee.baseFee + BigInt(latest.maxPriorityFeePerGas) > BigInt(latest.maxFeePerGas);
}

/**
 * A replacement's fees: each raised by the replacement rule, and at least what a new payment offers now.
 *
 * @param latest - the latest attempt's fees
 * @param fee - the fees now
 * @returns the replacement's fees
 * @example
 * const { maxFeePerGas, maxPriorityFeePerGas } = replacementFees(latest, fee);
 */
export function replacementFees(latest: OfferedFees, fee: Fees): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
  const maxPriorityFeePerGas = max(raised(BigInt(latest.maxPriorityFeePerGas)), fee.maxPriorityFeePerGas);
  const maxFeePerGas = max(raised(BigInt(latest.maxFeePerGas)), fee.baseFee * 2n + maxPriorityFeePerGas);
  return { maxFeePerGas, maxPriorityFeePerGas };
}
