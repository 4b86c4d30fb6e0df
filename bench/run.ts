/**
 * `npm run bench`: the four figures of the performance issue, each printed next to its floor and its budget or
 * goal, then a summary. A missed goal prints MISS and never fails the process; only a broken bench exits 1.
 *
 * Flags: --verbose (package split of every chunk), --quick (short load runs while developing the bench; its
 * figures are not comparable with a normal run).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBenchServer, type BenchServer } from './appServer';
import { benchBundle } from './bundle';
import { benchMeInfo, measureFloorLoad, type LoadSeconds, type PairOfRuns } from './meinfo';
import { detail, figures, ms } from './report';
import { benchSignIn } from './signin';
import { benchStartup } from './startup';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const verbose = args.has('--verbose');
const quick = args.has('--quick');
const seconds: LoadSeconds = quick ? { app: 3, floor: 2 } : { app: 10, floor: 5 };
const databaseUrl = process.env.DATABASE_URL || undefined;

const broken: string[] = [];

async function section(name: string, body: () => Promise<void>): Promise<void> {
  const started = performance.now();
  try {
    await body();
  } catch (error) {
    broken.push(name);
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.log(`bench ${name}: ERROR ${message.split('\n').slice(0, 4).join(' / ')}`);
  }
  detail(`${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function describeStart(server: BenchServer): void {
  const { open, migrate, seed, build } = server.phases;
  detail(`server start (${server.storage}, in process, sign-in limits raised): open ${ms(open)}, migrate ${ms(migrate)}, seed ${ms(seed)}, buildApp + listen ${ms(build)}`);
}

async function main(): Promise<void> {
  const started = performance.now();
  const load = os.loadavg().map((value) => value.toFixed(2)).join(' ');
  console.log(
    `bench env: node ${process.version}, ${os.cpus().length} cpus, loadavg ${load}, ` +
      `postgres ${databaseUrl ? 'yes (DATABASE_URL)' : 'no (DATABASE_URL unset)'}${quick ? ', QUICK (not comparable)' : ''}`,
  );

  await section('bundle', () => benchBundle({ repoRoot, verbose }));

  // Figure 4 first: its DATA_DIR, once main.ts has initialised it, is reused by the in-process PGlite server of
  // figures 2 and 3 (PGlite's initdb is the slow part of a start; a fresh dir is the fallback).
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-datadir-'));
  try {
    let dataDirReady = false;
    await section('startup', async () => {
      await benchStartup(repoRoot, dataDir);
      dataDirReady = true;
    });

    let floor: PairOfRuns | undefined;
    await section('meinfo.floor', async () => {
      floor = await measureFloorLoad(seconds);
    });

    await section('pglite', async () => {
      const server = await startBenchServer({ dataDir: dataDirReady ? dataDir : undefined });
      describeStart(server);
      try {
        await section('signin', () => benchSignIn(server));
        await section('meinfo.pglite', async () => {
          if (!floor) throw new Error('no floor measurement');
          await benchMeInfo(server, 'pglite', floor, seconds, true);
        });
      } finally {
        await server.close();
      }
    });

    if (databaseUrl) {
      await section('meinfo.postgres', async () => {
        if (!floor) throw new Error('no floor measurement');
        const server = await startBenchServer({ url: databaseUrl });
        describeStart(server);
        try {
          await benchMeInfo(server, 'postgres', floor, seconds, false);
        } finally {
          await server.close();
        }
      });
    } else {
      detail('meinfo.postgres: skipped (DATABASE_URL unset)');
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }

  const all = figures();
  const count = (verdict: string) => all.filter((figure) => figure.verdict === verdict).length;
  const misses = all.filter((figure) => figure.verdict === 'MISS').map((figure) => figure.name);
  console.log(
    `bench summary: ${all.length} figures, ${count('PASS')} PASS, ${count('MISS')} MISS, ${count('INFO')} INFO, ` +
      `${broken.length} broken, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (misses.length > 0) console.log(`bench summary: MISS ${misses.join(', ')}`);
  if (broken.length > 0) console.log(`bench summary: BROKEN ${broken.join(', ')}`);
  process.exit(broken.length > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
