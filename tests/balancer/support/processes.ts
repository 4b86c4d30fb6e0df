/**
 * What the three-instance run starts (tests/balancer/support/threeInstancesRun.ts): PostgreSQL, one anvil with the
 * token, three compiled servers on one database and that chain, and HAProxy from docs/deploy/haproxy.cfg with this
 * run's ports. Every process started here is stopped by `stopAll`, and killed by the exit handler if the run ends some
 * other way.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { AnvilNode } from '../../../server/chain/anvil';
import { startTestChain } from '../../server/support/testChain';
import { databaseUrl, onAdminConnection } from '../../support/postgresTemplate';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Undo steps, run in reverse by stopAll; children still alive at exit are killed there. */
const undo: (() => Promise<void> | void)[] = [];
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

let stopping: Promise<void> | undefined;

/** Adds a step for stopAll, run before the steps added earlier (the load before the processes it calls). */
export function atStop(step: () => Promise<void> | void): void {
  undo.push(step);
}

/** Runs the undo steps once; a second caller (a signal during the run's own ending) waits for the same. */
export function stopAll(): Promise<void> {
  stopping ??= (async () => {
    for (const step of undo.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        console.error('balancer: cleaning up failed:', error);
      }
    }
  })();
  return stopping;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function until(what: string, timeoutMs: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`balancer: ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const isRoot = process.getuid?.() === 0;

/** Installs a Debian package when its command is missing and this runs as root (as .ci/run installs chromium). */
function ensureCommand(command: string, debianPackage: string): void {
  if (spawnSync('sh', ['-c', `command -v ${command}`]).status === 0) return;
  if (!isRoot) throw new Error(`balancer: ${command} is missing: apt-get install ${debianPackage} (or run this as root, which installs it)`);
  console.log(`balancer: installing ${debianPackage} from Debian`);
  for (const args of [['update'], ['install', '-y', debianPackage]]) {
    const run = spawnSync('apt-get', args, { stdio: 'inherit' });
    if (run.status !== 0) throw new Error(`balancer: apt-get ${args.join(' ')} failed`);
  }
}

/**
 * Why the run cannot start here, or null when it can: HAProxy (installed when missing, as root) and PostgreSQL
 * (DATABASE_URL's cluster, or a throwaway one made as root).
 *
 * @returns the reason, for a test to skip with
 * @example
 * const missing = missingPrerequisite(); if (missing) console.warn(missing);
 */
export function missingPrerequisite(): string | null {
  const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
  if (!has('haproxy') && !isRoot) return 'haproxy is missing (apt-get install haproxy, or run as root, which installs it)';
  if (!process.env.DATABASE_URL && !isRoot) return 'no PostgreSQL: set DATABASE_URL, or run as root with PostgreSQL installed (.ci/postgres.sh)';
  return null;
}

/**
 * A database of its own for the run: in the cluster DATABASE_URL names, or in a throwaway cluster (.ci/postgres.sh,
 * root) when it is unset. Dropped (and the cluster removed) at the end.
 */
export async function startPostgres(): Promise<string> {
  let base = process.env.DATABASE_URL ?? '';
  if (!base) {
    const postgresScript = path.join(repoRoot, '.ci/postgres.sh');
    if (spawnSync(postgresScript, ['available']).status !== 0) {
      if (!isRoot) throw new Error('balancer: set DATABASE_URL, or install PostgreSQL and run as root (.ci/postgres.sh)');
      ensureCommand('/usr/lib/postgresql/*/bin/initdb', 'postgresql');
    }
    const started = spawnSync(postgresScript, ['start'], { encoding: 'utf8' });
    const exports = Object.fromEntries([...started.stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((match) => [match[1], match[2]]));
    const folder = exports.PG_TEST_DIR;
    if (started.status !== 0 || !exports.DATABASE_URL || !folder) throw new Error(`balancer: .ci/postgres.sh start failed: ${started.stderr}`);
    undo.push(() => {
      spawnSync(postgresScript, ['stop', folder]);
    });
    base = exports.DATABASE_URL ?? '';
  }
  const name = `md_balancer_${randomBytes(6).toString('hex')}`;
  await onAdminConnection(base, `CREATE DATABASE ${name}`);
  undo.push(() => onAdminConnection(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  return databaseUrl(base, name);
}

/** BNB Smart Chain's id: the seeded app config's, so the servers start on this node as on the real chain. */
export const CHAIN_ID = 56;
/** The token's decimals, as USDT's on BNB Smart Chain. */
export const TOKEN_DECIMALS = 18;

export interface TestNode {
  url: string;
  token: Address;
  treasury: Address;
  payerKey: Hex;
  payer: Address;
  node: AnvilNode;
}

/**
 * One anvil (four blocks a second) with the token deployed (the server suites' startTestChain), and a hot wallet of a
 * fresh key funded with gas and tokens: a real chain refuses anvil's well-known keys (server/chain/wellKnownKeys.ts).
 */
export async function startChain(): Promise<TestNode> {
  const testChain = await startTestChain({ chainId: CHAIN_ID, decimals: TOKEN_DECIMALS, blockTime: 0.25 });
  children.add(testChain.node.process);
  undo.push(() => testChain.stop());
  const payerKey = generatePrivateKey();
  const payer = privateKeyToAccount(payerKey).address;
  await testChain.fund(payer, '1000000');
  return { url: testChain.node.url, token: testChain.token, treasury: testChain.treasury, payerKey, payer, node: testChain.node };
}

export interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  output: () => string;
}

/** Starts dist/server/main.js with `env` and resolves once it listens (the server prints its chain last). */
export async function startInstance(name: string, port: number, env: Record<string, string>): Promise<Instance> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ['dist/server/main.js'], { cwd: repoRoot, env: { ...inherited, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await until(`${name} did not start: ${output.slice(-2000)}`, 90_000, () => {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`balancer: ${name} exited at start: ${output}`);
    return output.includes('Sign-in sites:');
  });
  return { name, port, child, output: () => output };
}

/** Stops every instance still running at the end (SIGKILL: the run is over). */
export function stopInstancesAtEnd(instances: () => Instance[]): void {
  undo.push(async () => {
    for (const instance of instances()) {
      instance.child.kill('SIGKILL');
      await exited(instance.child);
    }
  });
}

export function waitForExit(instance: Instance): Promise<void> {
  return exited(instance.child);
}

/** Resolves once the instance answers readiness 200 itself. */
export async function waitReady(instance: Instance): Promise<void> {
  await until(`${instance.name} was not ready`, 60_000, async () => {
    try {
      return (await fetch(`http://127.0.0.1:${instance.port}/api/health/ready`)).status === 200;
    } catch {
      return false;
    }
  });
}

/** The balancer's lines this run changes, each found exactly once in docs/deploy/haproxy.cfg. */
function runConfig(template: string, ports: { balancer: number; servers: number[]; socket: string }, checkMs: number): string {
  const edits: [RegExp, string][] = [
    // No syslog or user switch in a test run: the log on stderr (the run keeps it), its own stats socket, which it reads.
    [/^ {4}log \/dev\/log local0$/m, '    log stderr format raw local0'],
    [/^ {4}user haproxy\n/m, ''],
    [/^ {4}group haproxy\n/m, ''],
    [/^ {4}stats socket \S+ /m, `    stats socket ${ports.socket} `],
    [/^ {4}bind :80$/m, `    bind 127.0.0.1:${ports.balancer}`],
    // Plain HTTP in a test run: no certificate, so no TLS listener and no redirect to it.
    [/^ {4}bind :443 ssl crt \S+ alpn h2,http\/1\.1\n/m, ''],
    [/^ {4}http-request redirect scheme https code 301 unless \{ ssl_fc \}\n/m, ''],
    // Checks fast enough for a short run; SHUTDOWN_DRAIN_MS is set to cover them
    // (tests/balancer/support/threeInstancesRun.ts).
    [/^ {4}default-server inter 2s fall 2 rise 2$/m, `    default-server inter ${checkMs}ms fall 2 rise 2`],
    ...ports.servers.map((port, index): [RegExp, string] => [new RegExp(`^ {4}server app${index + 1} 127\\.0\\.0\\.1:808${index + 1} check$`, 'm'), `    server app${index + 1} 127.0.0.1:${port} check`]),
  ];
  let config = template;
  for (const [pattern, replacement] of edits) {
    const found = config.match(new RegExp(pattern.source, `${pattern.flags}g`))?.length ?? 0;
    if (found !== 1) throw new Error(`balancer: docs/deploy/haproxy.cfg has ${found} lines matching ${pattern} (1 expected): keep its bind, server and default-server lines`);
    config = config.replace(pattern, replacement);
  }
  return config;
}

export interface Balancer {
  url: string;
  /** Each server's state as HAProxy sees it (`show servers state`: 2 is running). */
  states(): Promise<Map<string, number>>;
  /** What HAProxy printed (its log's last 500 kB: servers going down and up, and each request). */
  output(): string;
  /** How many requests HAProxy ended other than normally, by termination state (SH--: the server closed first...). */
  ended(): Map<string, number>;
}

/** HAProxy in the foreground on docs/deploy/haproxy.cfg with this run's ports, listening on 127.0.0.1:`port`. */
export async function startBalancer(servers: number[], checkMs: number, port: number): Promise<Balancer> {
  ensureCommand('haproxy', 'haproxy');
  const folder = await mkdtemp(path.join(tmpdir(), 'md-haproxy-'));
  undo.push(() => rm(folder, { recursive: true, force: true }));
  const socket = path.join(folder, 'admin.sock');
  const config = runConfig(await readFile(path.join(repoRoot, 'docs/deploy/haproxy.cfg'), 'utf8'), { balancer: port, servers, socket }, checkMs);
  const file = path.join(folder, 'haproxy.cfg');
  await writeFile(file, config);
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  // Requests HAProxy ended other than normally, by its termination state (a log line's `- - SH--`), counted as the
  // log goes by; the log itself is kept only for its last 500 kB.
  const ended = new Map<string, number>();
  let partial = '';
  // BALANCER_HAPROXY_LOG=<file> keeps the whole log there too.
  const logFile = process.env.BALANCER_HAPROXY_LOG;
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    if (logFile) appendFileSync(logFile, text);
    output = (output + text).slice(-500_000);
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const state = /\] member_dapp \S+ \S+ \S+ \S+ - - (\S{4}) /.exec(line)?.[1];
      if (state && state !== '----') ended.set(state, (ended.get(state) ?? 0) + 1);
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  undo.push(async () => {
    child.kill('SIGTERM');
    await exited(child);
  });
  const ask = (command: string) =>
    new Promise<string>((resolve, reject) => {
      let answer = '';
      const connection = createConnection(socket, () => connection.end(`${command}\n`));
      connection.on('data', (chunk) => (answer += chunk.toString()));
      connection.on('end', () => resolve(answer));
      connection.on('error', reject);
    });
  await until(`haproxy did not start: ${output}`, 10_000, () => {
    if (child.exitCode !== null) throw new Error(`balancer: haproxy exited: ${output}`);
    return existsSync(socket);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    ended: () => new Map(ended),
    states: async () => {
      // Lines: be_id be_name srv_id srv_name srv_addr srv_op_state ...
      const rows = (await ask('show servers state member_dapp')).split('\n').map((line) => line.split(' ')).filter((fields) => fields.length > 6 && /^\d+$/.test(fields[0] ?? ''));
      return new Map(rows.map((fields) => [fields[3] ?? '', Number(fields[5])]));
    },
  };
}

/** Resolves once HAProxy sees every server up (or, with `name` and `up` false, that one down). */
export async function waitBalancerState(balancer: Balancer, name: string | undefined, up: boolean): Promise<void> {
  const began = Date.now();
  await until(`haproxy did not see ${name ?? 'every server'} ${up ? 'up' : 'down'}`, 30_000, async () => {
    if (Date.now() - began > 29_000) console.error(balancer.output().slice(-3000), await balancer.states());
    const states = await balancer.states();
    if (name) return (states.get(name) === 2) === up;
    return states.size > 0 && [...states.values()].every((state) => state === 2);
  });
}
