/**
 * The load of the three-instance run (tests/balancer/support/threeInstancesRun.ts): the money concurrency suite's mix
 * (tests/server/ledgerConcurrency.test.ts) over HTTP through the balancer: grants of CREDIT and WPOS, withdrawals
 * (approved on request within AUTO_APPROVE_MAX, the rest decided by the operator among the load), WPOS transfers to
 * the team, flash exchanges, replays of a request id, reads, and share-pool payouts run twice at once; and the shop's race for its last units
 * (tests/server/buy.test.ts) at the moments the run picks.
 */
import { formatMinor } from '../../../api-schema/amount';
import { newRequestId, type Call, type Client, type Member, type Sent } from './balancerClient';
import { seededRandom } from '../../../scripts/seededRandom';

/** Member i signs in with member (i - 1) / 2's invite code: a binary tree, so the first ones have a team below. */
export const recommenderOf = (index: number): number => Math.floor((index - 1) / 2);

export function downlineOf(index: number, count: number): number[] {
  const below: number[] = [];
  for (let member = index + 1; member < count; member++) {
    for (let up = member; up > 0; up = recommenderOf(up)) if (recommenderOf(up) === index) below.push(member);
  }
  return below;
}

export interface Load {
  /** Runs `workers` loops and the operator's until stop(); resolves when all have ended. */
  run(workers: number): Promise<void>;
  /** Whether the workers sent `count` calls of the mix (answered or not) within `timeoutMs`. */
  sent(count: number, timeoutMs: number): Promise<boolean>;
  /** The workers' calls of the mix so far. */
  count(): number;
  stop(): void;
}

/**
 * The mix, sent by each worker in turn until stopped.
 *
 * @param client - the balancer's client
 * @param members - signed in, each with a delivery address
 * @param seed - the generator's seed
 * @returns the load's run and stop
 * @example
 * const load = moneyLoad(client, members, 20261127); const running = load.run(8); ...; load.stop(); await running;
 */
export function moneyLoad(client: Client, members: (Member & { deliveryId: string })[], seed: number): Load {
  const rng = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(rng() * items.length)];
  const amount = (min: number, max: number) => formatMinor(BigInt(Math.round(min * 1_000_000)) + BigInt(Math.floor(rng() * (max - min) * 1_000_000)));
  const downlines = members.map((_, index) => downlineOf(index, members.length));
  const senders = downlines.flatMap((below, index) => (below.length > 0 ? [index] : []));
  const memberCall = (kind: string, member: number, url: string, body?: Record<string, unknown>): Call => ({
    kind,
    method: body ? 'POST' : 'GET',
    url,
    auth: { authorization: members[member]?.auth ?? '' },
    body,
    member,
  });
  const next = (): { call: Call; replayOf?: Sent } => {
    const draw = rng();
    const member = Math.floor(rng() * members.length);
    const address = members[member]?.address;
    if (draw < 0.18) return { call: { ...client.admin('grant', '/api/admin/grant', { address, asset: 'CREDIT', amount: amount(5, 100), requestId: newRequestId() }), member } };
    if (draw < 0.23) return { call: { ...client.admin('grant', '/api/admin/grant', { address, asset: 'WPOS', amount: amount(1, 50), requestId: newRequestId() }), member } };
    if (draw < 0.43) return { call: memberCall('withdraw', member, '/api/member/withdrawCredit', { amount: amount(10, 40), requestId: newRequestId() }) };
    if (draw < 0.56) return { call: memberCall('exchange', member, '/api/member/flashExchange', { from: rng() < 0.5 ? 'CREDIT' : 'WPOS', amount: amount(0.5, 20), requestId: newRequestId() }) };
    if (draw < 0.66) {
      const from = pick(senders) ?? 0;
      const to = pick(downlines[from] ?? []) ?? 1;
      return { call: memberCall('transfer', from, '/api/member/transferWpos', { toAddress: members[to]?.address, amount: amount(1, 10), requestId: newRequestId() }) };
    }
    if (draw < 0.76) {
      // A retry of an answered request with its id and body (an app that lost the answer).
      const first = pick(client.sent.filter((sent) => sent.answer && sent.call.body?.requestId !== undefined && !sent.replayOf));
      if (first) return { call: first.call, replayOf: first };
    }
    const reads = ['/api/member/meInfo', '/api/member/creditRecord?pageSize=5', '/api/member/wposRecord?pageSize=5', '/api/goods/detail?id=yunnan-coffee&lang=en'];
    return { call: memberCall('read', member, pick(reads) ?? '/api/member/meInfo') };
  };

  let stopped = false;
  let mixSent = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const worker = async () => {
    while (!stopped) {
      const { call, replayOf } = next();
      mixSent += 1;
      for (const waiter of waiting.filter((item) => mixSent >= item.count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
      await client.send(call, replayOf);
    }
  };
  // The operator decides withdrawals left pending (past AUTO_APPROVE_MAX) while the load goes on: half approved
  // (the payer then pays them), half failed (refunded); and every 2 s runs a day's share-pool payout (the last five
  // UTC days in turn, then again) twice at once, as the suite runs it from every instance at once.
  const decided = new Set<string>();
  const days = [5, 4, 3, 2, 1].map((back) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10));
  const operator = async () => {
    for (let round = 0; !stopped; round++) {
      const day = days[Math.floor(round / 10) % days.length];
      if (round % 10 === 0 && day) await Promise.all([0, 1].map(() => client.send(client.admin('distribute', '/api/admin/distribute', { day }))));
      const pending = client.sent.filter((sent) => sent.call.kind === 'withdraw' && !sent.replayOf && sent.answer?.code === 0 && isPending(sent.answer.result));
      const undecided = pending.map((sent) => withdrawalId(sent.answer?.result)).filter((id) => !decided.has(id));
      await Promise.all(
        undecided.slice(0, 4).map((id) => {
          decided.add(id);
          return client.send(client.admin('decide', '/api/admin/withdrawal/decide', { id, status: rng() < 0.5 ? 'approved' : 'failed' }));
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  return {
    run: async (workers) => {
      await Promise.all([...Array.from({ length: workers }, worker), operator()]);
    },
    sent: (count, timeoutMs) =>
      mixSent >= count
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), timeoutMs);
            waiting.push({
              count,
              resolve: () => {
                clearTimeout(timer);
                resolve(true);
              },
            });
          }),
    count: () => mixSent,
    stop: () => {
      stopped = true;
    },
  };
}

function isPending(result: unknown): boolean {
  return typeof result === 'object' && result !== null && 'status' in result && result.status === 'pending';
}

export function withdrawalId(result: unknown): string {
  return typeof result === 'object' && result !== null && 'id' in result ? String(result.id) : '';
}

/**
 * Every member buys at once: `quantity` of `goodsId` each (the shop's race for its last units).
 *
 * @returns the orders as sent
 */
export function shopRace(client: Client, members: (Member & { deliveryId: string })[], goodsId: string, quantity: number): Promise<Sent[]> {
  return Promise.all(
    members.map((member, index) =>
      client.send({
        kind: 'settle',
        method: 'POST',
        url: '/api/order/settle',
        auth: { authorization: member.auth },
        body: { goodsId, quantity, deliveryId: member.deliveryId, requestId: newRequestId() },
        member: index,
      }),
    ),
  );
}
