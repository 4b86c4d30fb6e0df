/**
 * The real side of the top-up machine: the wallet's token transfers (src/wallet/tokenTransfers.ts, loaded with the
 * sheet), the server's topUp call, and the pending top-up kept in storage (PENDING_TOP_UP) for a reload.
 */
import { fromPromise } from 'xstate';
import type { Address, Hex } from 'viem';
import { ApiCode } from '../../api-schema/codes';
import { topUpMachine, type TopUpCheck } from '../../machines/credit/topUpMachine';
import type { ApiClient } from '../api/client';
import { topUp } from '../api/screenCalls';
import type { BrowserStorage } from '../storage/browserStorage';
import { PENDING_TOP_UP_KEY } from '../storage/keys';
import type { TokenTransfers } from '../wallet/tokenTransfers';

/**
 * The stored record's shape, checked by hand: two string fields, where zod/mini would put its 8.6 KiB chunk among
 * the sheet's own imports (bench/bundle.ts counts them against the sheet's 30 KiB budget).
 */
function readPending(value: unknown): { txHash: string; address: string } | null {
  if (typeof value !== 'object' || value === null) return null;
  const { txHash, address } = value as { txHash?: unknown; address?: unknown };
  return typeof txHash === 'string' && /^0x[0-9a-fA-F]{64}$/.test(txHash) && typeof address === 'string' ? { txHash, address } : null;
}

/**
 * The hash of a top-up the member sent and that is not credited yet, if it was this address's.
 *
 * @param storage - the page's storage
 * @param address - the signed-in member
 * @returns the hash, or null
 * @example
 * const pendingHash = readPendingTopUp(storage, member.address);
 */
export function readPendingTopUp(storage: BrowserStorage, address: string): string | null {
  const pending = readPending(storage.readJson(PENDING_TOP_UP_KEY));
  return pending && pending.address.toLowerCase() === address.toLowerCase() ? pending.txHash : null;
}

/** An answer of the API other than 0: the check failed (the machine keeps waiting and counts it). */
class TopUpCheckError extends Error {
  override readonly name = 'ApiError';
  constructor(readonly code: number) {
    super(`topUp answered ${code}`);
  }
}

export interface TopUpActorsParameters {
  api: ApiClient;
  storage: BrowserStorage;
  address: Address;
  /** The wallet's token transfers, loaded when the sheet opens. */
  transfers: () => Promise<TokenTransfers>;
  /** Money arrived: the balance and records are read again. */
  onCredited: () => void;
}

/**
 * The top-up machine with its real actors and actions.
 *
 * @param parameters - API client, storage, the member's address, the wallet's transfers, what to do once credited
 * @returns the provided machine
 * @example
 * <TopUpContext.Provider logic={provideTopUpMachine({ api, storage, address, transfers, onCredited })} />
 */
export function provideTopUpMachine({ api, storage, address, transfers: loadTransfers, onCredited }: TopUpActorsParameters) {
  // One set of transfers for the flow's life (its replacement watches live there); a failed load is tried again.
  let loaded: Promise<TokenTransfers> | undefined;
  const transfers = (): Promise<TokenTransfers> => {
    loaded ??= loadTransfers().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  return topUpMachine.provide({
    actors: {
      readBalance: fromPromise<string>(async () => (await transfers()).readBalance()),
      sendTransfer: fromPromise<string, { amount: string }>(async ({ input }) => (await transfers()).sendTransfer(input.amount)),
      checkTopUp: fromPromise<TopUpCheck, { txHash: string }>(async ({ input }) => {
        const answer = await topUp(api, { txHash: input.txHash });
        if (answer.code !== ApiCode.ok || !answer.result) throw new TopUpCheckError(answer.code);
        const check: TopUpCheck = { ...answer.result };
        // Not mined yet: the wallet may have replaced it (sped up or cancelled).
        if (check.status === 'pending') check.replacement = await (await transfers()).findReplacement(input.txHash as Hex);
        return check;
      }),
    },
    actions: {
      storePendingHash: (_, params: { txHash: string }) => {
        storage.writeJson(PENDING_TOP_UP_KEY, { txHash: params.txHash, address });
      },
      clearPendingHash: () => {
        storage.remove(PENDING_TOP_UP_KEY);
      },
      reportCredited: () => onCredited(),
    },
  });
}
