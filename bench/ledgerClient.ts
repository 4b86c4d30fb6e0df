/**
 * Load worker of the ledger figure (a worker thread, so the client's CPU is not charged to the server's thread):
 * `connections` keep-alive lanes each POST withdrawCredit back to back, a new requestId every time and the member
 * tokens in turn, until the deadline; answers latency and envelope code of every request.
 */
import { randomUUID } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { requestJson } from './net';

const inputSchema = z.object({
  baseUrl: z.string(),
  tokens: z.array(z.string()).min(1),
  connections: z.number().int().positive(),
  durationMs: z.number().positive(),
  warmupMs: z.number().min(0),
  amount: z.string(),
});
export type LedgerLoadInput = z.infer<typeof inputSchema>;

export interface LedgerLoadResult {
  ok: true;
  /** Milliseconds of the measured window. */
  elapsedMs: number;
  latencies: number[];
  codes: Record<string, number>;
}

async function runLoad(input: LedgerLoadInput): Promise<LedgerLoadResult> {
  const url = new URL('/api/member/withdrawCredit', input.baseUrl).href;
  const envelope = z.object({ code: z.number() });
  let turn = 0;
  const one = async (): Promise<number> => {
    const token = input.tokens[turn++ % input.tokens.length] ?? '';
    const { body } = await requestJson(url, { method: 'POST', body: { amount: input.amount, requestId: randomUUID() }, headers: { authorization: token } });
    return envelope.parse(body).code;
  };
  const lanes = async (until: number, record: (latency: number, code: number) => void): Promise<void> => {
    await Promise.all(
      Array.from({ length: input.connections }, async () => {
        while (performance.now() < until) {
          const started = performance.now();
          const code = await one();
          record(performance.now() - started, code);
        }
      }),
    );
  };
  await lanes(performance.now() + input.warmupMs, () => undefined);
  const latencies: number[] = [];
  const codes: Record<string, number> = {};
  const started = performance.now();
  await lanes(started + input.durationMs, (latency, code) => {
    latencies.push(latency);
    codes[code] = (codes[code] ?? 0) + 1;
  });
  return { ok: true, elapsedMs: performance.now() - started, latencies, codes };
}

const port = parentPort;
if (port) {
  const parsed = inputSchema.safeParse(workerData);
  const answer = parsed.success
    ? runLoad(parsed.data).catch((error: unknown) => ({ ok: false as const, error: error instanceof Error ? error.message : String(error) }))
    : Promise.resolve({ ok: false as const, error: `bad worker input: ${parsed.error.message}` });
  void answer.then((message) => port.postMessage(message));
}
