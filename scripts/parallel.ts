/**
 * npm run <script>... side by side (the static checks of `npm test`: typecheck, lint, diagrams, openapi), each one's
 * output printed whole when it ends so they do not interleave; fails when any fails. Hand-written rather than a
 * dependency (npm-run-all, concurrently) for these twenty lines.
 *
 * @example npx tsx scripts/parallel.ts typecheck lint
 */
import { spawn } from 'node:child_process';

async function run(script: string): Promise<{ script: string; code: number; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(`> ${script} (${seconds.toFixed(1)} s, exit ${code ?? 'signal'})\n${Buffer.concat(output).toString()}`);
      resolve({ script, code: code ?? 1, seconds });
    });
  });
}

const results = await Promise.all(process.argv.slice(2).map(run));
const failed = results.filter((result) => result.code !== 0).map((result) => result.script);
if (failed.length > 0) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
