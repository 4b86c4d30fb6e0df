/* global process, console */
// npm start: build the SPA when dist/spa is missing or older than its sources, then run the server (PORT and HOST
// as in server/env.ts). Plain .mjs so that it runs on bare Node before anything is compiled.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Newest modification time among files (folders are walked).
 *
 * @param {string[]} paths - files or folders
 * @returns {number} milliseconds since the epoch, 0 when nothing exists
 * @example
 * newestMtime(['src', 'index.html']);
 */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(p)) visit(path.join(p, entry));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

/**
 * Whether the SPA must be (re)built: no dist/spa/index.html, or a file in src/ or index.html is newer.
 *
 * @param {string} root - repository root
 * @returns {boolean} true when a build is needed
 * @example
 * if (needsBuild(process.cwd())) build();
 */
export function needsBuild(root) {
  const built = path.join(root, 'dist', 'spa', 'index.html');
  if (!existsSync(built)) return true;
  return newestMtime([path.join(root, 'src'), path.join(root, 'index.html')]) > statSync(built).mtimeMs;
}

function run() {
  if (needsBuild(repoRoot)) {
    console.log('start: building the SPA (dist/spa is missing or older than src/)');
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
