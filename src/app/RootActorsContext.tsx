import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import type { RootActors } from './rootActors';

const RootActorsContext = createContext<RootActors | null>(null);

/** Hands the root actors (wallet, auth, config) to every route. */
export function RootActorsProvider({ actors, children }: { actors: RootActors; children: ReactNode }) {
  return <RootActorsContext.Provider value={actors}>{children}</RootActorsContext.Provider>;
}

/** The root actors; throws outside RootActorsProvider, which is a wiring bug. */
export function useRootActors(): RootActors {
  const actors = useContext(RootActorsContext);
  if (!actors) throw new Error('useRootActors needs a RootActorsProvider');
  return actors;
}
