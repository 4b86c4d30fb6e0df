/**
 * The search's promise to the member: only the newest keyword's answer is ever shown, however late an older one
 * comes back.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { createSearchMachine } from '../../machines/search/searchMachine';
import type { SearchAnswer } from '../../machines/search/searchMachine';
import { selectResults, selectSearchView } from '../../machines/search/searchSelectors';
import { flushPromises } from '../../scripts/machineGraph/pathWalker';

describe('search: the last answer wins', () => {
  it('ignores the answer to an older keyword that arrives after the newer one started', async () => {
    const answers = new Map<string, (answer: SearchAnswer<string>) => void>();
    const machine = createSearchMachine<string>().provide({
      actors: {
        search: fromPromise<SearchAnswer<string>, { keyword: string }>(({ input }) => new Promise((resolve) => answers.set(input.keyword, resolve))),
      },
    });
    const clock = new SimulatedClock();
    const actor = createActor(machine, { clock }).start();

    actor.send({ type: 'user.type', keyword: '0x3c44' });
    clock.increment(300);
    await flushPromises();
    expect(answers.has('0x3c44')).toBe(true);
    actor.send({ type: 'user.type', keyword: '0x3c44c' });
    clock.increment(300);
    await flushPromises();

    answers.get('0x3c44')?.({ code: 0, result: { list: ['old'] } });
    await flushPromises();
    expect(selectSearchView(actor.getSnapshot())).toBe('searching');
    expect(selectResults(actor.getSnapshot())).toEqual([]);

    answers.get('0x3c44c')?.({ code: 0, result: { list: ['new'] } });
    await flushPromises();
    expect(selectSearchView(actor.getSnapshot())).toBe('found');
    expect(selectResults(actor.getSnapshot())).toEqual(['new']);
  });

  it('sends nothing while the keyword cannot match', async () => {
    const sent: string[] = [];
    const machine = createSearchMachine<string>().provide({
      actors: { search: fromPromise<SearchAnswer<string>, { keyword: string }>(async ({ input }) => (sent.push(input.keyword), { code: 0, result: { list: [] } })) },
    });
    const clock = new SimulatedClock();
    const actor = createActor(machine, { clock }).start();
    for (const keyword of ['0x', '3c4', "3c4'--", '<b>']) {
      actor.send({ type: 'user.type', keyword });
      clock.increment(1_000);
      await flushPromises();
    }
    expect(sent).toEqual([]);
    expect(selectSearchView(actor.getSnapshot())).toBe('notHex');
  });
});
