/**
 * The built SPA the e2e server serves: dist/spa, rebuilt with `npx vite build` when it is missing or older than
 * any file the last build read (scripts/start.mjs needsBuild, shared with `npm start`).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { needsBuild } from '../../../scripts/start.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const spaDir = path.join(repoRoot, 'dist', 'spa');

/**
 * Tells whether dist/spa must be (re)built, by the one check `npm start` uses (scripts/start.mjs needsBuild: the
 * files the last build read, as it recorded them).
 *
 * @returns true when dist/spa is missing or older than what it was built from
 * @example
 * if (await spaIsStale()) await buildSpa();
 */
export async function spaIsStale(): Promise<boolean> {
  return needsBuild(repoRoot);
}

/**
 * Runs `npx vite build` in the repository root and rejects with its output when it fails.
 *
 * @returns when dist/spa is written
 * @example
 * await buildSpa();
 */
export function buildSpa(): Promise<void> {
  return new Promise((resolve, reject) => {
    // Vitest sets NODE_ENV=test, and a Vite build under it bundles React's development build: build for
    // production, as `npm start` does, so the journeys test what ships and `npm run bench` can reuse dist/spa.
    const env = { ...process.env, NODE_ENV: 'production' };
    const child = spawn('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`npx vite build failed with exit code ${String(code)}:\n${output}`));
    });
  });
}

/**
 * Builds the SPA once when it is missing or stale; a fresh build is left alone.
 *
 * @returns whether a build ran
 * @example
 * await ensureSpaBuilt(); // in globalSetup, and again (a no-op then) before the server starts
 */
export async function ensureSpaBuilt(): Promise<boolean> {
  if (!(await spaIsStale())) return false;
  await buildSpa();
  return true;
}
