/**
 * The real side of the config machine: GET dappParam and the DAPP_PARAM storage key, checked against the contract.
 */
import { fromPromise } from 'xstate';
import { createConfigMachine } from '../../machines/config/configMachine';
import type { DappParamRecord } from '../../machines/config/configMachine';
import type { Answer } from '../../machines/shared/answer';
import { toAnswer } from '../api/answer';
import type { ApiClient } from '../api/client';
import { loadConfigContract } from '../api/contractLoader';
import { getDappParam } from '../api/getDappParam';
import type { BrowserStorage } from '../storage/browserStorage';
import { STORAGE_KEYS } from '../storage/keys';
import { provideBuilt } from '../../machines/shared/provideBuilt';

/**
 * Provides the config machine with the dappParam call and its storage.
 *
 * @example const machine = provideConfigMachine({ api, storage });
 */
export function provideConfigMachine({ api, storage }: { api: ApiClient; storage: BrowserStorage }) {
  return provideBuilt(createConfigMachine(), {
    actors: {
      readStoredDappParam: fromPromise<DappParamRecord>(async () => {
        const { dappParamSchema } = await loadConfigContract();
        const stored = storage.readDappParam();
        return dappParamSchema.safeParse(stored).success ? stored : {};
      }),
      // Spec section 8: a failed app-config fetch returns nothing (null).
      fetchDappParam: fromPromise<Answer<DappParamRecord>>(async () => toAnswer(await getDappParam(api))),
    },
    actions: {
      storeDappParam: ({ context }) => void storage.writeJson(STORAGE_KEYS.dappParam, context.dappParam),
    },
  });
}
