/**
 * A local development chain: Foundry's anvil, from the npm registry's @foundry-rs/anvil (its platform package ships
 * the binary, so nothing is downloaded at run time). `npm start` runs one when CHAIN_RPC_URL is unset, and every chain
 * test starts its own on a free port. The binary is taken from the platform package directly: the wrapper's
 * postinstall script (which only checks that package) is not run by npm 11 unless approved, and is not needed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The platform packages @foundry-rs/anvil lists as optional dependencies. */
const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

/**
 * The anvil binary of this platform. @foundry-rs/anvil is a devDependency (docs/operations.md, "Production"): a
 * production install (`npm ci --omit=dev`) has none, and runs on a configured chain, so only the development chain and
 * the tests ask.
 *
 * @param resolve - finds a package's file (require.resolve; tests give one that fails)
 * @returns its path
 * @throws Error when the platform has no package or it is not installed, saying what to do
 * @example
 * spawn(anvilBinary(), ['--port', '8545']);
 */
export function anvilBinary(resolve: (request: string) => string = require.resolve): string {
  const name = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!name) throw new Error(`the development chain needs anvil, which has no build for ${process.platform}-${process.arch}: set CHAIN_RPC_URL, TOKEN_ADDRESS and TREASURY_ADDRESS to a chain of yours (docs/operations.md, "Credit on chain: top-ups")`);
  let manifest: string;
  try {
    manifest = resolve(`${name}/package.json`);
  } catch {
    throw new Error(
      `the development chain needs anvil (${name}, installed with the devDependency @foundry-rs/anvil), and it is not installed: ` +
        'run `npm ci` with the devDependencies (not --omit=dev), or set CHAIN_RPC_URL, TOKEN_ADDRESS and TREASURY_ADDRESS to a chain of yours (docs/operations.md, "Production")',
    );
  }
  return path.join(path.dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

/** A port nobody listens on now (the kernel's choice); the short race until anvil binds it is acceptable here. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface AnvilOptions {
  /** Port on 127.0.0.1 (or `host`); default a free one. */
  port?: number;
  host?: string;
  chainId: number;
  /** Seconds between blocks; default none (a block per transaction, and blocks only when asked: anvil_mine). */
  blockTime?: number;
  /** anvil's --state file: loaded at start when it exists, written every `stateInterval` seconds and at exit. */
  stateFile?: string;
  stateInterval?: number;
  /** Milliseconds to wait for the node to answer; default 30 s. */
  readyTimeoutMs?: number;
}

export interface AnvilNode {
  url: string;
  port: number;
  process: ChildProcess;
  /** Stops it with SIGTERM (anvil writes its state file then) and waits for the exit. */
  stop(): Promise<void>;
  /** Kills it with SIGKILL (no state written), as a crash would. */
  kill(): Promise<void>;
}

async function waitForRpc(url: string, child: ChildProcess, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`anvil exited (${child.exitCode ?? child.signalCode}): ${output()}`);
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`anvil did not answer at ${url} within ${timeoutMs} ms: ${output()}`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts anvil and waits until it answers JSON-RPC.
 *
 * @param options - chain id, port, block time, state file
 * @returns the node's URL and its stop and kill
 * @example
 * const node = await startAnvil({ chainId: 31_337_056 });
 * await node.stop();
 */
export async function startAnvil(options: AnvilOptions): Promise<AnvilNode> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort());
  const args = ['--host', host, '--port', String(port), '--chain-id', String(options.chainId), '--silent'];
  if (options.blockTime !== undefined) args.push('--block-time', String(options.blockTime));
  if (options.stateFile) args.push('--state', options.stateFile, '--state-interval', String(options.stateInterval ?? 1));
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  try {
    await waitForRpc(url, child, options.readyTimeoutMs ?? 30_000, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    port,
    process: child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}
