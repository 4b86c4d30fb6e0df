/**
 * `npm run payer -- recover | settle HASH debit|writeOff REASON | status` (docs/operations.md, "Backups and restore";
 * docs/API.md, "Credit on chain: the payer's journal"): the recovery from the chain and the settling of unknown
 * payments from the command line, through the running server's operator API as the operator whose API key OPS_API_KEY
 * holds (role finance), so the operators' policy and the audit log apply as on the desk. SERVER_URL defaults to this
 * host's desk port (OPS_PORT, else PORT).
 */
import { randomUUID } from 'node:crypto';

const USAGE = `usage: OPS_API_KEY=mdk_... npm run payer -- status
       OPS_API_KEY=mdk_... npm run payer -- recover
       OPS_API_KEY=mdk_... npm run payer -- settle HASH debit|writeOff REASON`;

const key = process.env.OPS_API_KEY;
const base = process.env.SERVER_URL || `http://127.0.0.1:${process.env.OPS_PORT || process.env.PORT || '8080'}`;
const [command, ...rest] = process.argv.slice(2);

async function call(method: 'GET' | 'POST', url: string, body?: Record<string, unknown>): Promise<{ code: number; msg?: string; result?: unknown }> {
  const response = await fetch(new URL(url, base), {
    method,
    headers: { authorization: `Bearer ${key ?? ''}`, ...(body ? { 'content-type': 'application/json' } : {}), origin: base },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await response.json()) as { code: number; msg?: string; result?: unknown };
}

function done(answer: { code: number; msg?: string; result?: unknown }): never {
  console.log(JSON.stringify(answer.code === 0 ? answer.result : answer, null, 2));
  process.exit(answer.code === 0 ? 0 : 1);
}

if (!key) {
  console.error(`${USAGE}\n(OPS_API_KEY: an API key of a finance operator, made on the desk or with opsKeyCreate)`);
  process.exit(2);
}
if (command === 'status' && rest.length === 0) {
  const answer = await call('GET', '/api/admin/reconcile');
  if (answer.code !== 0) done(answer);
  const result = answer.result as { ok: boolean; journal: unknown; unknownPayments: unknown[] };
  done({ code: 0, result: { ok: result.ok, journal: result.journal, unknownPayments: result.unknownPayments } });
}
if (command === 'recover' && rest.length === 0) done(await call('POST', '/api/admin/payer/recover', { requestId: randomUUID() }));
const [hash, settlement, ...reason] = rest;
if (command === 'settle' && hash && (settlement === 'debit' || settlement === 'writeOff') && reason.length > 0) {
  done(await call('POST', '/api/admin/unknownPayments/settle', { hash, settlement, reason: reason.join(' '), requestId: randomUUID() }));
}
console.error(USAGE);
process.exit(2);
