/**
 * Load worker of the ledger figures (a worker thread, so the client's CPU is not charged to the server's thread):
 * autocannon with `connections` keep-alive connections POSTs one money call back to back (withdrawCredit,
 * transferWpos or flashExchange), the given calls in turn with a new requestId every time, first for a warm-up and
 * then for the measured run; answers the envelope code of every measured request and autocannon's latency
 * percentiles.
 *
 * autocannon rather than node:http: on two cores the client shares the machine with the server and PostgreSQL, and
 * node:http's client cost about 0.26 ms of CPU per request (half a core at 2,000/s), which the server's rate paid.
 * autocannon writes pre-built requests on raw sockets and parses the answers with a small parser.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { z } from 'zod';
import { answerParent } from './tsWorker';

const inputSchema = z.object({
  baseUrl: z.string(),
  /** The endpoint, e.g. /api/member/withdrawCredit. */
  path: z.string(),
  /** Member token and body (without requestId) of each call, taken in turn. */
  calls: z.array(z.object({ token: z.string(), body: z.record(z.string(), z.unknown()) })).min(1),
  connections: z.number().int().positive(),
  durationMs: z.number().positive(),
  warmupMs: z.number().min(0),
});
export type LedgerLoadInput = z.infer<typeof inputSchema>;

export interface LedgerLoadResult {
  ok: true;
  /** Milliseconds of the measured run. */
  elapsedMs: number;
  p50: number;
  p99: number;
  /** Envelope code → answers; `http <status>` for an answer that is not a JSON envelope. */
  codes: Record<string, number>;
  errors: number;
  timeouts: number;
}

const envelopeCode = /^\{"code":(-?\d+)/;

/**
 * autocannon leaves a run's raw histograms unaggregated when it runs in a worker thread (as here); its exported
 * aggregateResult, missing from @types/autocannon, turns them into the usual result.
 */
const { aggregateResult } = autocannon as unknown as { aggregateResult(results: unknown[], opts: { url: string }): autocannon.Result };

async function run(input: LedgerLoadInput, seconds: number, record: (code: string) => void): Promise<autocannon.Result> {
  let turn = 0;
  const raw: unknown = await autocannon({
    url: input.baseUrl,
    connections: input.connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: input.path,
        setupRequest: (request) => {
          const call = input.calls[turn++ % input.calls.length];
          return {
            ...request,
            headers: { 'content-type': 'application/json', authorization: call?.token ?? '' },
            body: JSON.stringify({ ...call?.body, requestId: randomUUID() }),
          };
        },
        // The server writes `code` first in every envelope (its response schema's order), so the code is read
        // off the start of the body rather than by parsing each answer.
        onResponse: (status, body) => record(envelopeCode.exec(body)?.[1] ?? `http ${status}`),
      },
    ],
  });
  return aggregateResult([raw], { url: input.baseUrl });
}

async function runLoad(input: LedgerLoadInput): Promise<LedgerLoadResult> {
  if (input.warmupMs > 0) await run(input, input.warmupMs / 1000, () => undefined);
  const codes: Record<string, number> = {};
  const result = await run(input, input.durationMs / 1000, (code) => {
    codes[code] = (codes[code] ?? 0) + 1;
  });
  return { ok: true, elapsedMs: result.duration * 1000, p50: result.latency.p50, p99: result.latency.p99, codes, errors: result.errors, timeouts: result.timeouts };
}

answerParent(inputSchema, runLoad);
