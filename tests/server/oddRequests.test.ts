/**
 * Odd requests get a clear 4xx (or the SPA for an ordinary unknown page), never a 5xx, and nothing outside the
 * built SPA and the locales is ever served. The requests go over a real socket on 127.0.0.1, byte for byte:
 * app.inject() would resolve %2e%2e and backslashes through the URL parser before the server saw them.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientErrorAnswer } from '../../server/plugins/clientErrors';
import { MAX_TARGET_LENGTH, oddTargetOf } from '../../server/plugins/requestTarget';
import { describeWithDatabases } from './support/harness';
import { createStaticSite, type StaticSite } from './support/staticSite';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are and reads the answer until the server closes the connection. */
function rawRequest(port: number, bytes: Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer in 5 s')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as const),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) });
    });
    // write, not end: a half-closed socket lets Node's server drop the answer; Connection: close ends it.
    socket.write(bytes);
  });
}

/** A GET with the target exactly as given (latin1, so control bytes stay single bytes). */
function get(target: string): Buffer {
  return Buffer.from(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`, 'latin1');
}

type Answer =
  /** The docs/API.md envelope, 4xx, code 1001 or 4004 (also for what Node's parser refuses before Fastify). */
  | { envelope: 1001 | 4004; status: number }
  /** The SPA's index.html (its router shows the 404 page). */
  | 'spa';

const kb = (n: number) => 'a'.repeat(n * 1024);

/** Every shape tried, with the answer it gets. */
const shapes: [name: string, target: string, answer: Answer][] = [
  // Dot segments under /locales, the SPA files and the API: raw, percent-encoded, with %2f, double-encoded.
  ['raw .. under /locales', '/locales/../../package.json', { envelope: 1001, status: 400 }],
  ['raw .. in a locale name', '/locales/zh/../../secret.json', { envelope: 1001, status: 400 }],
  ['raw .. at the root', '/../secret.json', { envelope: 1001, status: 400 }],
  ['raw .. under /assets', '/assets/../../secret.json', { envelope: 1001, status: 400 }],
  ['raw . segment', '/locales/./zh/common.json', { envelope: 1001, status: 400 }],
  ['%2e%2e under /locales', '/locales/%2e%2e/%2e%2e/secret.json', { envelope: 1001, status: 400 }],
  ['%2E%2E upper case', '/locales/%2E%2E/secret.json', { envelope: 1001, status: 400 }],
  ['..%2f in a locale name', '/locales/zh/..%2f..%2fsecret.json', { envelope: 1001, status: 400 }],
  ['%2e%2e%2f in a locale name', '/locales/zh/%2e%2e%2f%2e%2e%2fsecret.json', { envelope: 1001, status: 400 }],
  ['%2f inside the language', '/locales/zh%2f..%2f..%2fsecret.json', { envelope: 1001, status: 400 }],
  ['%2e%2e under /assets', '/assets/%2e%2e/%2e%2e/secret.json', { envelope: 1001, status: 400 }],
  ['..%2f at the root', '/..%2fsecret.json', { envelope: 1001, status: 400 }],
  ['double-encoded under /locales', '/locales/zh/%252e%252e%252fsecret.json', { envelope: 1001, status: 400 }],
  ['double-encoded under /assets', '/assets/%252e%252e/%252e%252e/secret.json', { envelope: 1001, status: 400 }],
  ['double-encoded under /api', '/api/%252e%252e/dapp/dappParam', { envelope: 1001, status: 400 }],
  ['overlong UTF-8 dots', '/%c0%ae%c0%ae/secret.json', { envelope: 1001, status: 400 }],
  ['raw backslashes', '/locales\\..\\..\\secret.json', { envelope: 1001, status: 400 }],
  ['%5c backslashes', '/..%5c..%5csecret.json', { envelope: 1001, status: 400 }],
  ['empty segments', '//etc/passwd', { envelope: 1001, status: 400 }],
  ['empty segments under /assets', '/assets//..//..//secret.json', { envelope: 1001, status: 400 }],
  ['empty segment in an API path', '/api/dapp//dappParam', { envelope: 1001, status: 400 }],
  // NUL and other control characters, encoded; raw ones never get past Node's parser.
  ['%00 in a page path', '/login/%00', { envelope: 1001, status: 400 }],
  ['%00 at the root', '/%00', { envelope: 1001, status: 400 }],
  ['%00 in a locale name', '/locales/zh/common%00.json', { envelope: 1001, status: 400 }],
  ['%00 after an API path', '/api/dapp/dappParam%00', { envelope: 1001, status: 400 }],
  ['%01', '/%01', { envelope: 1001, status: 400 }],
  ['%1b escape sequence', '/%1b[31mred', { envelope: 1001, status: 400 }],
  ['%7f', '/locales/%7f/common.json', { envelope: 1001, status: 400 }],
  ['%0d%0a header injection', '/login%0d%0aSet-Cookie:%20x=1', { envelope: 1001, status: 400 }],
  ['raw NUL byte', '/lo\u0000cales', { envelope: 1001, status: 400 }],
  ['raw control byte', '/a\u0001b', { envelope: 1001, status: 400 }],
  ['raw DEL', '/a\u007fb', { envelope: 1001, status: 400 }],
  ['raw 8-bit bytes', '/\u00ff\u00fe', { envelope: 1001, status: 400 }],
  // Malformed percent-encoding.
  ['lone %', '/%', { envelope: 1001, status: 400 }],
  ['%zz', '/api/%zz', { envelope: 1001, status: 400 }],
  ['truncated UTF-8 escape', '/locales/%E0%A4%A', { envelope: 1001, status: 400 }],
  ['%zz in a locale name', '/locales/zh/%zz.json', { envelope: 1001, status: 400 }],
  // Long paths and URLs.
  ['a 2 KiB locale name', `/locales/zh/${'a'.repeat(MAX_TARGET_LENGTH - 20)}.json`, { envelope: 4004, status: 404 }],
  // @fastify/static refuses a name longer than the file system allows (403), which stays a 4xx.
  ['a 300-character page name (longer than a file name)', `/${'a'.repeat(300)}`, { envelope: 1001, status: 403 }],
  ['a locale name longer than maxParamLength', `/locales/zh/${'a'.repeat(150)}.json`, { envelope: 4004, status: 404 }],
  ['an 8 KiB page path', `/${kb(8)}`, { envelope: 1001, status: 414 }],
  ['an 8 KiB locale path', `/locales/zh/${kb(8)}.json`, { envelope: 1001, status: 414 }],
  ['an 8 KiB API path', `/api/${kb(8)}`, { envelope: 1001, status: 414 }],
  ['an 8 KiB query', `/api/member/loginNonce?address=${kb(8)}`, { envelope: 1001, status: 414 }],
  ['a 64 KiB URL (over the header limit)', `/${kb(64)}`, { envelope: 1001, status: 431 }],
  // Other odd but harmless targets.
  ['absolute-form target (its path is what counts)', 'http://evil.test/locales/zh/nothing.json', { envelope: 4004, status: 404 }],
  ['no leading slash', 'locales/zh/common.json', { envelope: 1001, status: 400 }],
  ['a dotfile name', '/.env', 'spa'],
  ['a .git path', '/.git/config', 'spa'],
  ['upper-case API prefix', '/API/dapp/dappParam', 'spa'],
  ['unknown locale language', '/locales/ZH/common.json', { envelope: 4004, status: 404 }],
];

describe('oddTargetOf', () => {
  it.each([
    ['/locales/zh/common.json', undefined],
    ['/login/DEMO2026?lng=en&x=%zz', undefined],
    ['/notice/100%25', undefined],
    ['/locales/zh/..%2fa.json', 'dotSegment'],
    ['/a/%252e%252e/b', 'dotSegment'],
    ['/a%00', 'controlCharacter'],
    ['/a\\b', 'backslash'],
    ['//a', 'emptySegment'],
    ['/%zz', 'badEncoding'],
    [`/${'a'.repeat(MAX_TARGET_LENGTH)}`, 'tooLong'],
  ] as const)('behavior: %s → %s', (target, reason) => {
    expect(oddTargetOf(target)).toBe(reason);
  });
});

describe('clientErrorAnswer', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'headers'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request'],
    ['HPE_INVALID_METHOD', 400, 'request'],
    [undefined, 400, 'request'],
  ] as const)('behavior: %s → %i with 1001 naming the %s', (code, status, part) => {
    const answer = clientErrorAnswer(code);
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(JSON.parse(body)).toEqual({ code: 1001, message: part });
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
  });
});

describeWithDatabases('odd requests', (ctx) => {
  let site: StaticSite;

  beforeAll(async () => {
    site = await createStaticSite('md-odd-', {
      spa: {
        'index.html': '<!doctype html><title>Member DApp</title>',
        'assets/index-abc123.js': 'console.log(1)',
        // Inside a served folder, but a dotfile: never served either.
        '.env': 'SECRET=TOP-SECRET',
      },
      locales: { 'zh/common.json': '{"ok":"好"}' },
      // Beside the served folders: must never be served, whatever the path says.
      beside: { 'secret.json': '{"secret":"TOP-SECRET"}' },
    });
  });

  afterAll(async () => {
    await site.remove();
  });

  async function listening(): Promise<{ app: FastifyInstance; port: number }> {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('not listening');
    return { app, port: address.port };
  }

  it('answers every shape with its 4xx or the SPA, never a 5xx, never a file from outside', async () => {
    const { port } = await listening();
    const seen: [string, Answer | string][] = [];
    for (const [name, target, expected] of shapes) {
      const response = await rawRequest(port, get(target));
      expect(response.status, name).toBeLessThan(500);
      expect(response.body, name).not.toContain('TOP-SECRET');
      if (expected === 'spa') {
        seen.push([name, response.status === 200 && response.body.includes('<title>Member DApp</title>') ? 'spa' : `${response.status} ${response.body.slice(0, 80)}`]);
      } else {
        let code: unknown;
        try {
          code = (JSON.parse(response.body) as { code?: unknown }).code;
        } catch {
          code = `not JSON: ${response.body.slice(0, 80)}`;
        }
        seen.push([name, { envelope: code as 1001, status: response.status }]);
        // Refusals carry the security headers too.
        expect(response.headers['x-content-type-options'], name).toBe('nosniff');
      }
    }
    expect(seen).toEqual(shapes.map(([name, , expected]) => [name, expected]));
  });

  it('still serves the real files and pages after all that', async () => {
    const { port } = await listening();
    const locale = await rawRequest(port, get('/locales/zh/common.json'));
    expect({ status: locale.status, body: JSON.parse(locale.body) as unknown }).toEqual({ status: 200, body: { ok: '好' } });
    const asset = await rawRequest(port, get('/assets/index-abc123.js'));
    expect(asset.status).toBe(200);
    const page = await rawRequest(port, get('/login/DEMO2026?lng=en'));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Member DApp</title>');
  });

  it.each([
    ['POST', 400, 1001],
    ['PUT', 400, 1001],
    ['DELETE', 400, 1001],
    ['OPTIONS', 400, 1001],
    // A method Fastify does not route at all is not found before any path rule applies.
    ['PROPFIND', 404, 4004],
  ])('%s with a dot segment → %i with %i, not a 5xx', async (method, status, code) => {
    const { port } = await listening();
    const response = await rawRequest(port, Buffer.from(`${method} /api/../api/member/logout HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`));
    expect({ status: response.status, code: (JSON.parse(response.body) as { code: number }).code }).toEqual({ status, code });
  });
});
