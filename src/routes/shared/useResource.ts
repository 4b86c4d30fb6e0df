import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import { fromPromise } from 'xstate';
import { createResourceMachine } from '../../../machines/resource/resourceMachine';
import type { ResourceAnswer } from '../../../machines/resource/resourceMachine';
import { provideBuilt } from '../../../machines/shared/provideBuilt';

/**
 * The page's own document actor (resource machine), living as long as the page.
 *
 * @param fetch - the screen's API call for the query
 * @param query - the starting query
 * @returns the actor
 * @example
 * const about = useResource((query) => fetchAbout(api, query), { lang });
 */
export function useResource<TValue, TQuery>(fetch: (query: TQuery) => Promise<ResourceAnswer<TValue>>, query: TQuery) {
  // Created once: the call is fixed for the life of the page; a changed query goes to the machine as user.changeQuery.
  const [logic] = useState(
    () =>
      provideBuilt(createResourceMachine<TValue, TQuery>(), {
        actors: {
          fetchResource: fromPromise<ResourceAnswer<TValue>, { query: TQuery }>(({ input }) => fetch(input.query)),
        },
      }),
  );
  return useActorRef(logic, { input: { query } });
}
