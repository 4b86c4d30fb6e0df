import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import type { DeskActors } from './deskActors';

const DeskContext = createContext<DeskActors | null>(null);

/** Hands the desk's actors (wallet, config, session, the desk's API client) to every screen. */
export function DeskActorsProvider({ actors, children }: { actors: DeskActors; children: ReactNode }) {
  return <DeskContext.Provider value={actors}>{children}</DeskContext.Provider>;
}

/** The desk's actors; throws outside DeskActorsProvider, which is a wiring bug. */
export function useDesk(): DeskActors {
  const actors = useContext(DeskContext);
  if (!actors) throw new Error('useDesk needs a DeskActorsProvider');
  return actors;
}
