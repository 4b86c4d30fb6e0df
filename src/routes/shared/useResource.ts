import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import { fromPromise } from 'xstate';
import { createResourceMachine } from '../../../machines/resource/resourceMachine';
import type { ResourceAnswer } from '../../../machines/resource/resourceMachine';
import type { ApiResult } from '../../api/client';

/**
 * The page's own document actor (resource machine), living as long as the page.
 *
 * @param fetch - the screen's API call for the query
 * @param query - the starting query
 * @returns the actor
 * @example
 * const about = useResource((query) => api.call('aboutOur', { query }), { lang });
 */
export function useResource<TValue, TQuery>(fetch: (query: TQuery) => Promise<ApiResult<TValue>>, query: TQuery) {
  // Created once: the call is fixed for the life of the page; a changed query goes to the machine as user.changeQuery.
  const [logic] = useState(
    () =>
      createResourceMachine<TValue, TQuery>().provide({
        actors: {
          fetchResource: fromPromise<ResourceAnswer<TValue>, { query: TQuery }>(async ({ input }) => {
            const answer = await fetch(input.query);
            return { code: answer.code, result: answer.code === 0 && answer.result !== undefined ? answer.result : null };
          }),
        },
      }),
  );
  return useActorRef(logic, { input: { query } });
}
