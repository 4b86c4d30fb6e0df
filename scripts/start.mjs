/* global process, console */
// npm start: build the SPA when dist/spa is missing or older than what it was built from, then run the server (PORT and HOST
// as in server/env.ts). Plain .mjs so that it runs on bare Node before anything is compiled.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Whether a build must run again: its output or its record of what it read (a JSON list of paths from the root) is
 * missing or unreadable, or a recorded file is gone or newer than the output. The SPA's and the compiled server's
 * builds (scripts/buildServer.ts) share this check.
 *
 * @param {string} root - repository root
 * @param {string} built - the build's output file, relative to root
 * @param {string} record - its record of inputs, relative to root
 * @returns {boolean} true when a build is needed
 * @example
 * if (isStale(root, 'dist/server/main.js', 'dist/server/inputs.json')) build();
 */
export function isStale(root, built, record) {
  const builtFile = path.join(root, built);
  const recordFile = path.join(root, record);
  if (!existsSync(builtFile) || !existsSync(recordFile)) return true;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(recordFile, 'utf8'));
  } catch {
    return true;
  }
  if (!Array.isArray(inputs) || inputs.length === 0) return true;
  const builtAt = statSync(builtFile).mtimeMs;
  return inputs.some((input) => {
    const file = path.join(root, String(input));
    return !existsSync(file) || statSync(file).mtimeMs > builtAt;
  });
}

/**
 * Whether the SPA must be (re)built: the one check `npm start`, the e2e setup and the bench share. A build records
 * every file it read (its module graph, the Vite config and what the config imports, index.html, package-lock.json:
 * scripts/vite/buildInputsPlugin.ts) in dist/spa/.vite/inputs.json; the SPA is stale when that record or
 * dist/spa/index.html is missing, or when a recorded file is gone or newer than the build.
 *
 * @param {string} root - repository root
 * @returns {boolean} true when a build is needed
 * @example
 * if (needsBuild(process.cwd())) build();
 */
export function needsBuild(root) {
  return isStale(root, path.join('dist', 'spa', 'index.html'), path.join('dist', 'spa', '.vite', 'inputs.json'));
}

function run() {
  if (needsBuild(repoRoot)) {
    console.log('start: building the SPA (dist/spa is missing or older than its sources)');
    const build = spawnSync('npx', ['vite', 'build'], { cwd: repoRoot, stdio: 'inherit', env: process.env });
    if (build.status !== 0) {
      console.error('start: vite build failed');
      process.exit(build.status ?? 1);
    }
  }

  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: repoRoot, stdio: 'inherit', env: process.env });
  // Pass stop signals on, so the server closes its port and database cleanly, and leave with its exit status.
  const forward = (signal) => () => server.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward(signal));
  server.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else {
      process.exit(code ?? 1);
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) run();
