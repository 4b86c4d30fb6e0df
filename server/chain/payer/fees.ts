/**
 * The fees the payer offers (docs/decisions/0019-withdrawals-paid-on-chain.md): a new payment's over the latest base
 * fee, or a legacy gas price on a chain without EIP-1559 pricing; when a sent one is stuck, its replacement's.
 */
import type { PublicClient } from 'viem';

export interface Fees {
  /** A chain without EIP-1559 pricing (its blocks have no base fee): payments carry a gas price, kept as both fees. */
  legacy: boolean;
  baseFee: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** The fees a new payment offers over a block's base fee: twice the base fee and a 1 gwei tip. */
export function feesOver(baseFee: bigint): Fees {
  const maxPriorityFeePerGas = 1_000_000_000n;
  return { legacy: false, baseFee, maxPriorityFeePerGas, maxFeePerGas: baseFee * 2n + maxPriorityFeePerGas };
}

/**
 * The fees now: over the latest block's base fee, or the node's gas price where blocks have none.
 *
 * @param client - the chain's client
 * @returns the fees a new payment offers now
 * @example
 * const fee = await currentFees(chain.client);
 */
export async function currentFees(client: PublicClient): Promise<Fees> {
  const block = await client.getBlock({ blockTag: 'latest' });
  if (block.baseFeePerGas === null || block.baseFeePerGas === undefined) {
    const gasPrice = await client.getGasPrice();
    return { legacy: true, baseFee: 0n, maxFeePerGas: gasPrice, maxPriorityFeePerGas: gasPrice };
  }
  return feesOver(block.baseFeePerGas);
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
 * Whether the latest attempt is stuck, unmined `stuckAfterMs`: the base fee past what it offers; or, where there is
 * no base fee to compare (0, as on BNB Smart Chain, or legacy pricing), its age alone once it is the nonce the chain
 * waits for (`isNext`: one behind a nonce hole is not raised, the hole is filled), or a legacy gas price below the
 * node's.
 *
 * @param latest - the latest attempt's fees and when it was signed
 * @param fee - the fees now
 * @param now - the payer's clock
 * @param rule - how long it may wait, and whether its nonce is the chain's next
 * @returns true when it is to be replaced
 * @example
 * if (isStuck(latest, fee, now, { stuckAfterMs: 30_000, isNext: true })) replace();
 */
export function isStuck(latest: OfferedFees, fee: Fees, now: Date, rule: { stuckAfterMs: number; isNext: boolean }): boolean {
  if (now.getTime() - latest.createdAt.getTime() < rule.stuckAfterMs) return false;
  if (fee.legacy) return rule.isNext || fee.maxFeePerGas > BigInt(latest.maxFeePerGas);
  if (fee.baseFee === 0n) return rule.isNext;
  return pricedOut(latest, fee.baseFee);
}

/**
 * Whether an EIP-1559 payment's fee cap no longer covers the base fee plus its tip: the rule the payer replaces by
 * and reconcile names `fee` by.
 *
 * @param offered - the payment's fees
 * @param baseFee - the latest block's base fee
 * @returns true when it cannot be mined at these prices
 * @example
 * if (pricedOut(latest, block.baseFeePerGas ?? 0n)) reason = 'fee';
 */
export function pricedOut(offered: Pick<OfferedFees, 'maxFeePerGas' | 'maxPriorityFeePerGas'>, baseFee: bigint): boolean {
  return baseFee + BigInt(offered.maxPriorityFeePerGas) > BigInt(offered.maxFeePerGas);
}

/**
 * A replacement's fees: each raised by the replacement rule, and at least what a new payment offers now (a legacy
 * gas price is raised the same way, kept as both fees).
 *
 * @param latest - the latest attempt's fees
 * @param fee - the fees now
 * @returns the replacement's fees
 * @example
 * const { maxFeePerGas, maxPriorityFeePerGas } = replacementFees(latest, fee);
 */
export function replacementFees(latest: OfferedFees, fee: Fees): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
  if (fee.legacy) {
    const gasPrice = max(raised(BigInt(latest.maxFeePerGas)), fee.maxFeePerGas);
    return { maxFeePerGas: gasPrice, maxPriorityFeePerGas: gasPrice };
  }
  const maxPriorityFeePerGas = max(raised(BigInt(latest.maxPriorityFeePerGas)), fee.maxPriorityFeePerGas);
  const maxFeePerGas = max(raised(BigInt(latest.maxFeePerGas)), fee.baseFee * 2n + maxPriorityFeePerGas);
  return { maxFeePerGas, maxPriorityFeePerGas };
}
