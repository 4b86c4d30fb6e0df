import { useSelector } from '@xstate/react';
import type { DappParam } from '../../api-schema/dapp';
import { dappParamSchema } from '../../api-schema/dapp';
import { useDesk } from './DeskContext';

const parsed = new WeakMap<object, DappParam | null>();

/** The app config's chain (to connect to, and its block explorer) once loaded; null until then. */
export function useDeskChain(): DappParam | null {
  const { config } = useDesk();
  return useSelector(config, (snapshot) => {
    const raw = snapshot.context.dappParam;
    if (!raw) return null;
    if (!parsed.has(raw)) {
      const result = dappParamSchema.safeParse(raw);
      parsed.set(raw, result.success ? result.data : null);
    }
    return parsed.get(raw) ?? null;
  });
}

/** The block explorer's base URL, for transaction links; undefined when the chain names none. */
export function useExplorer(): string | undefined {
  return useDeskChain()?.chain.blockExplorerUrls?.[0];
}
