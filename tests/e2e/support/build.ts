/**
 * The built SPA the e2e server serves: dist/spa, rebuilt with `npx vite build` when index.html is missing or
 * older than any file the build reads (src/, machines/, index.html, vite.config.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const spaDir = path.join(repoRoot, 'dist', 'spa');
const spaIndex = path.join(spaDir, 'index.html');

/** What the SPA build reads; a change in any of them makes dist/spa stale. */
const buildInputs = ['src', 'machines', 'index.html', 'vite.config.ts'];

async function newestChange(target: string): Promise<number> {
  const info = await stat(target).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(target, { withFileTypes: true });
  let newest = info.mtimeMs;
  for (const entry of entries) newest = Math.max(newest, await newestChange(path.join(target, entry.name)));
  return newest;
}

/**
 * Tells whether dist/spa must be (re)built.
 *
 * @returns true when dist/spa/index.html is missing or older than a build input
 * @example
 * if (await spaIsStale()) await buildSpa();
 */
export async function spaIsStale(): Promise<boolean> {
  if (!existsSync(spaIndex)) return true;
  const built = (await stat(spaIndex)).mtimeMs;
  const inputs = await Promise.all(buildInputs.map((input) => newestChange(path.join(repoRoot, input))));
  return inputs.some((changed) => changed > built);
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
