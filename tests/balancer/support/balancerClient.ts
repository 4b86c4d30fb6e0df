/**
 * The clients of the three-instance run (tests/balancer/support/threeInstancesRun.ts), all through the balancer:
 * members signed in over HTTP (SIWE, as the sign-in page), the test treasury (the run's first admin, signed in over
 * HTTP, with a finance API key), and every request kept with what happened to it. A request the balancer answered 5xx,
 * or that got no answer, is kept as cut; its client sends it again with the same request id, as the app does, until it
 * has an answer.
 */
import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import { z } from 'zod';
import { signInOverHttp } from '../../server/support/httpSignIn';
import { treasuryHeadersOverHttp } from '../../support/treasury';

const envelope = z.object({ code: z.number(), result: z.unknown().optional() });

export interface Member {
  address: Address;
  auth: string;
  inviteCode: string;
}

/** What one request asks; `requestId` when the call takes one (money), kept for every retry. */
export interface Call {
  kind: string;
  method: 'GET' | 'POST';
  url: string;
  /** The member's token, the treasury's key, or none (a public call). */
  auth: Record<string, string>;
  body?: Record<string, unknown>;
  member?: number;
}

/** One attempt at a call: its HTTP status (and body when 5xx), or the error when nothing came back. */
export interface Attempt {
  sentAt: number;
  answeredAt: number;
  status?: number;
  error?: string;
  body?: string;
}

export interface Sent {
  call: Call;
  attempts: Attempt[];
  /** The answer, once an attempt got one below 500 that is not 3005 (the first one still running). */
  answer?: { code: number; result: unknown };
  /** A replay of another call's request id (the same body): its answer must be the first's. */
  replayOf?: Sent;
}

export class Client {
  readonly sent: Sent[] = [];
  /** The treasury's credential once signInTreasury has run. */
  private treasury: Record<string, string> | undefined;
  constructor(readonly base: string) {}

  /** The test treasury signs in (it is the instances' OPS_FIRST_ADMIN) and makes its key, for admin(). */
  async signInTreasury(): Promise<void> {
    this.treasury = await treasuryHeadersOverHttp(this.base);
  }

  /** Sends once; a 5xx, a 3005 or no answer leaves it unanswered for `settle`. */
  async attempt(sent: Sent): Promise<void> {
    const attempt: Attempt = { sentAt: performance.now(), answeredAt: 0 };
    sent.attempts.push(attempt);
    const { call } = sent;
    try {
      const response = await fetch(`${this.base}${call.url}`, {
        method: call.method,
        headers: { ...call.auth, ...(call.body ? { 'content-type': 'application/json' } : {}) },
        body: call.body ? JSON.stringify(call.body) : undefined,
      });
      const text = await response.text();
      attempt.status = response.status;
      attempt.answeredAt = performance.now();
      if (response.status >= 500) {
        attempt.body = text.slice(0, 200);
        return;
      }
      const parsed = envelope.parse(JSON.parse(text));
      if (parsed.code === 3005) return;
      sent.answer = { code: parsed.code, result: parsed.result };
    } catch (error) {
      attempt.answeredAt = performance.now();
      const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
      attempt.error = typeof cause?.code === 'string' ? cause.code : String(error);
    }
  }

  /** Sends until answered, as the app does: a call without an answer goes again with its request id. */
  async send(call: Call, replayOf?: Sent): Promise<Sent> {
    const sent: Sent = { call, attempts: [], replayOf };
    this.sent.push(sent);
    const deadline = Date.now() + 60_000;
    await this.attempt(sent);
    while (!sent.answer && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await this.attempt(sent);
    }
    return sent;
  }

  /** Sends every unanswered call again (same body, same request id) until each has an answer. */
  async settle(timeoutMs = 60_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    let retried = 0;
    for (;;) {
      const open = this.sent.filter((sent) => !sent.answer);
      if (open.length === 0) return retried;
      if (Date.now() > deadline) throw new Error(`balancer: ${open.length} calls still unanswered: ${JSON.stringify(open.slice(0, 3).map((sent) => sent.attempts))}`);
      retried += open.length;
      await Promise.all(open.map((sent) => this.attempt(sent)));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** An answer the run needs to go on (set-up, sign-in): sent until answered, code 0. */
  async must<T>(call: Call, schema: z.ZodType<T>): Promise<T> {
    const sent = await this.send(call);
    await this.settle();
    if (sent.answer?.code !== 0) throw new Error(`balancer: ${call.kind} answered ${JSON.stringify(sent.answer)}`);
    return schema.parse(sent.answer.result);
  }

  /** A call of the test treasury (after signInTreasury). */
  admin(kind: string, url: string, body?: Record<string, unknown>): Call {
    if (!this.treasury) throw new Error('balancer: the treasury has not signed in');
    return { kind, method: body ? 'POST' : 'GET', url, auth: this.treasury, body };
  }

  /** A new member signs in (SIWE over HTTP, as the sign-in page) with the invite code given. */
  /** A new member signed in over HTTP (tests/server/support/httpSignIn.ts, as the sign-in page), with their invite code. */
  async signIn(chainId: number, inviteCode: string): Promise<Member> {
    const { address, auth } = await signInOverHttp(this.base, chainId, undefined, inviteCode);
    const me = z.object({ inviteCode: z.string() }).parse(envelope.parse(await (await fetch(`${this.base}/api/member/meInfo`, { headers: { authorization: auth } })).json()).result);
    return { address, auth, inviteCode: me.inviteCode };
  }
}

export const newRequestId = (): string => randomUUID();
