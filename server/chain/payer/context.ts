/**
 * What every part of the payer (server/chain/payer/index.ts) works with: the database, the chain, the hot wallet's
 * key, its settings, and the two things it does with the chain besides reading: sign a payment locally and broadcast
 * signed bytes.
 */
import { keccak256, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Db } from '../../db/client';
import type { Chain } from '../chain';
import type { PayerOptions, PayerSigner, PayerStep } from './types';
import { taggedTransferData } from './paymentTag';

export interface PayerContext {
  db: Db;
  chain: Chain;
  client: PublicClient;
  account: PayerSigner;
  chainId: number;
  token: Address;
  holder: string;
  leaseMs: number;
  batch: number;
  gasLimit: bigint;
  stuckAfterMs: number;
  /** How deep a payment's block must be before the payer stops checking it. */
  watchBlocks: bigint;
  confirmations: bigint;
  now: () => Date;
  step: (name: PayerStep) => void;
  onLost: PayerOptions['onLost'];
  /**
   * Signs a token transfer from the hot wallet naming its withdrawal (paymentTag.ts; `legacy`: with `maxFeePerGas` as
   * its gas price); nothing is sent.
   */
  sign(fields: { to: Address; tokenAmount: bigint; withdrawalId: bigint; createdAt: Date; nonce: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; legacy: boolean }): Promise<{ raw: Hex; hash: Hex }>;
  /** Signs a zero-value transfer from the hot wallet to itself at `nonce` (a nonce hole's filler); nothing is sent. */
  signFiller(fields: { nonce: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; legacy: boolean }): Promise<Hex>;
  /** Sends signed bytes; a node that has them already, or has mined them, says so: fine. */
  broadcast(raws: readonly Hex[]): Promise<void>;
}

/**
 * The payer's context from its options.
 *
 * @param options - the payer's options
 * @returns the context its parts share
 * @example
 * const context = payerContext(options);
 */
export function payerContext(options: PayerOptions): PayerContext {
  const { db, chain } = options;
  const client = chain.client;
  const account = typeof options.key === 'string' ? privateKeyToAccount(options.key) : options.key;
  const chainId = chain.settings.chainId;
  const token = chain.token.address;
  const gasLimit = options.gasLimit ?? 100_000n;
  return {
    db,
    chain,
    client,
    account,
    chainId,
    token,
    holder: options.holder,
    leaseMs: options.leaseMs ?? 15_000,
    batch: options.batch ?? 500,
    gasLimit,
    stuckAfterMs: options.stuckAfterMs ?? 30_000,
    // Two epochs: an Ethereum block this deep is final.
    watchBlocks: BigInt(options.watchBlocks ?? 64),
    confirmations: BigInt(chain.settings.confirmations),
    now: options.now,
    step: (name) => options.onStep?.(name),
    onLost: options.onLost,
    async sign(fields) {
      const common = {
        chainId,
        to: token,
        data: taggedTransferData(fields),
        value: 0n,
        gas: gasLimit,
        nonce: Number(fields.nonce),
      };
      const raw = fields.legacy
        ? await account.signTransaction({ ...common, type: 'legacy', gasPrice: fields.maxFeePerGas })
        : await account.signTransaction({ ...common, type: 'eip1559', maxFeePerGas: fields.maxFeePerGas, maxPriorityFeePerGas: fields.maxPriorityFeePerGas });
      return { raw, hash: keccak256(raw) };
    },
    signFiller(fields) {
      const common = { chainId, to: account.address, value: 0n, gas: 21_000n, nonce: Number(fields.nonce) };
      return fields.legacy
        ? account.signTransaction({ ...common, type: 'legacy', gasPrice: fields.maxFeePerGas })
        : account.signTransaction({ ...common, type: 'eip1559', maxFeePerGas: fields.maxFeePerGas, maxPriorityFeePerGas: fields.maxPriorityFeePerGas });
    },
    async broadcast(raws) {
      // Sent all at once (the transport batches them).
      await Promise.all(raws.map((raw) => client.request({ method: 'eth_sendRawTransaction', params: [raw] }).catch(() => undefined)));
    },
  };
}
