/**
 * RPC URLs carry API keys: what the server prints or logs names them without path, query or user
 * info, the chain client's errors included (viem puts the URL in their text and `url`): a node that answers 5xx,
 * one that is not there.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainClient, connectChain } from './chain';
import { freePort } from './anvil';
import { isLoopbackHost, redactUrl, redactUrlsIn } from './rpcUrls';

/** Everything an error would show in a log: its own fields and its causes', as JSON and as text. */
function everythingShown(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 10 && typeof current === 'object' && current !== null; depth++) {
    // An Error's text (its name and message) and every own property, enumerable or not.
    parts.push(current instanceof Error ? current.toString() : '', JSON.stringify(current, Object.getOwnPropertyNames(current)));
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join('\n');
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('RPC URLs', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('service unavailable');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('behavior: shows scheme, host and port only', () => {
    expect(redactUrl('https://bsc.example/v1/SECRET?apikey=SECRET2')).toBe('https://bsc.example/…');
    expect(redactUrl('https://user:SECRET@bsc.example')).toBe('https://bsc.example/…');
    expect(redactUrl('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545');
    expect(redactUrl('not a url SECRET')).toBe('(not a URL)');
    expect(redactUrlsIn('URL: https://bsc.example/v1/SECRET and https://bsc.example/v1/SECRET/', ['https://bsc.example/v1/SECRET'])).toBe(
      'URL: https://bsc.example/… and https://bsc.example/…/',
    );
  });

  it('behavior: loopback hosts are 127.0.0.0/8, ::1 and localhost', () => {
    for (const host of ['127.0.0.1', '127.255.0.9', '[::1]', 'localhost', 'LOCALHOST']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['10.0.0.1', '127.0.0.1.nip.io', 'localhost.example', '[::ffff:7f00:1]', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });

  it('behavior: the chain client fails without showing the path, query or user info of any of its URLs', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const urls = [`${base}/down/v1/SECRET-A?apikey=SECRET-B`, `http://user:SECRET-C@127.0.0.1:${new URL(closed).port}/v1/SECRET-D`];
    const error = await failure(chainClient(urls).getChainId());
    const shown = everythingShown(error);
    expect(shown).not.toMatch(/SECRET/);
    expect(shown).toMatch(/URL: http:\/\/127\.0\.0\.1:\d+\/…/);
  });

  it('behavior: connectChain fails at start the same way', async () => {
    const error = await failure(
      connectChain({ rpcUrls: [`${base}/down/v1/SECRET-E`], token: '0x55d398326f99059fF775485246999027B3197955', treasury: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', confirmations: 1, chainId: 56 }),
    );
    const shown = everythingShown(error);
    expect(shown).not.toMatch(/SECRET/);
    expect(shown).toMatch(/HTTP request failed/);
  });
});
