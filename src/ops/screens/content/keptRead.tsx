import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { createResourceMachine } from '../../../../machines/resource/resourceMachine';
import { selectResource } from '../../../../machines/resource/resourceSelectors';
import { ReadState } from '../../parts/ReadState';

interface KeptReadProps<TValue, TQuery> {
  actor: ActorRefFrom<ReturnType<typeof createResourceMachine<TValue, TQuery>>>;
  isEmpty: (value: TValue) => boolean;
  emptyTitle: string;
  children: (value: TValue) => ReactNode;
}

/**
 * A read's states (ReadState) until it first loads; read again after a save, its rows stay on the screen until the
 * new ones come, so a form open on them keeps what the operator typed and the answer it got.
 */
export function KeptRead<TValue, TQuery>({ actor, isEmpty, emptyTitle, children }: KeptReadProps<TValue, TQuery>) {
  const value = useSelector(actor, selectResource<TValue, TQuery>);
  if (value !== null && !isEmpty(value)) return <>{children(value)}</>;
  return (
    <ReadState actor={actor} isEmpty={isEmpty} emptyTitle={emptyTitle}>
      {children}
    </ReadState>
  );
}
