/**
 * `npm run bench`: the four figures of the performance issue, each printed next to its floor and its budget or
 * goal, then a summary. A missed goal prints MISS and never fails the process; only a broken bench exits 1.
 *
 * Flags: see USAGE (`npx tsx bench/run.ts --help`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../tests/e2e/support/server';
import { startBenchServer, type BenchServer } from './appServer';
import { benchBundle } from './bundle';
import { benchLedger } from './ledger';
import { hostLog } from './hostLoop';
import { benchLighthouse } from './lighthouse';
import { benchMeInfo, measureFloorLoad, type LoadSeconds, type PairOfRuns } from './meinfo';
import { benchMetrics } from './metricsCost';
import { detail, figures, ms } from './report';
import { benchRush } from './rush';
import { benchScale, emptyDatabase } from './scale';
import { benchSignIn } from './signin';
import { benchStartup } from './startup';
import { benchTeamSearch } from './teamSearch';
import { benchTopUps } from './topUps';
import { benchPayouts } from './payouts';

const USAGE = `usage: npm run bench -- [--only <sections>] [--verbose] [--quick] [--help]

  --only <sections>  run only these sections, comma-separated: bundle, lighthouse, startup, signin, meinfo, ledger,
                     topups, payouts, rush, teamsearch, scale (PostgreSQL: 1,000,000 members; not in the default run)
                     (e.g. --only bundle prints the bundle figures in about a minute, no server load tests)
  --verbose          print the package split of every chunk
  --quick            shorter load runs while working on the bench (figures not comparable)
  --help             print this and exit`;

const SECTIONS = ['bundle', 'lighthouse', 'startup', 'signin', 'meinfo', 'ledger', 'topups', 'payouts', 'rush', 'teamsearch', 'scale'] as const;
type SectionName = (typeof SECTIONS)[number];

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface RunOptions {
  verbose: boolean;
  quick: boolean;
  help: boolean;
  only: Set<SectionName>;
}

function isSection(name: string): name is SectionName {
  return (SECTIONS as readonly string[]).includes(name);
}

/** Reads the command line; throws with the usage on an unknown flag or section. */
function parseArgs(argv: string[]): RunOptions {
  // The scale bench runs only when named: it fills a PostgreSQL database with a million members.
  const options: RunOptions = { verbose: false, quick: false, help: false, only: new Set(SECTIONS.filter((name) => name !== 'scale')) };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    if (arg === '--verbose') options.verbose = true;
    else if (arg === '--quick') options.quick = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[(index += 1)] : arg.slice('--only='.length);
      const names = (value ?? '').split(',').map((name) => name.trim()).filter(Boolean);
      const unknown = names.filter((name) => !isSection(name));
      if (names.length === 0 || unknown.length > 0) throw new Error(`--only wants some of ${SECTIONS.join(', ')}; got ${value ?? 'nothing'}\n\n${USAGE}`);
      options.only = new Set(names.filter(isSection));
    } else throw new Error(`unknown argument ${arg}\n\n${USAGE}`);
  }
  return options;
}

let options: RunOptions;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
const { verbose, quick, only } = options;
const seconds: LoadSeconds = quick ? { app: 3, floor: 2 } : { app: 10, floor: 5 };
const databaseUrl = process.env.DATABASE_URL || undefined;

const broken: string[] = [];

/** Runs a section, with the host's speed at its start and end (bench/hostLoop.ts), to read its figures against. */
async function section(name: string, body: () => Promise<void>): Promise<void> {
  hostLog.read(`start of ${name}`);
  const started = performance.now();
  try {
    await body();
  } catch (error) {
    broken.push(name);
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.log(`bench ${name}: ERROR ${message.split('\n').slice(0, 4).join(' / ')}`);
  }
  detail(`${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  hostLog.read(`end of ${name}`);
}

function describeStart(server: BenchServer): void {
  const { open, migrate, seed, build } = server.phases;
  detail(`server start (${server.storage}, in process, sign-in limits raised): open ${ms(open)}, migrate ${ms(migrate)}, seed ${ms(seed)}, buildApp + listen ${ms(build)}`);
}

/** Figures 2-5, which share a DATA_DIR and the in-process PGlite server; runs the sections in `only`. */
async function serverSections(only: ReadonlySet<SectionName>): Promise<void> {
  // Figure 4 first: its DATA_DIR, once main.ts has initialised it, is reused by the in-process PGlite server of
  // figures 2 and 3 (PGlite's initdb is the slow part of a start; a fresh dir is the fallback).
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-datadir-'));
  try {
    let dataDirReady = false;
    if (only.has('startup')) {
      await section('startup', async () => {
        await benchStartup(repoRoot, dataDir);
        dataDirReady = true;
      });
    }

    let floor: PairOfRuns | undefined;
    if (only.has('meinfo')) {
      await section('meinfo.floor', async () => {
        floor = await measureFloorLoad(seconds);
      });
    }

    if (!only.has('signin') && !only.has('meinfo') && !only.has('ledger') && !only.has('topups') && !only.has('payouts') && !only.has('rush')) return;
    await section('pglite', async () => {
      const server = await startBenchServer({ dataDir: dataDirReady ? dataDir : undefined });
      describeStart(server);
      try {
        if (only.has('signin')) await section('signin', () => benchSignIn(server));
        if (only.has('meinfo')) {
          await section('meinfo.pglite', async () => {
            if (!floor) throw new Error('no floor measurement');
            await benchMeInfo(server, 'pglite', floor, seconds, true);
          });
        }
        if (only.has('meinfo')) await section('metrics.pglite', () => benchMetrics(server));
        if (only.has('ledger')) await section('ledger.pglite', () => benchLedger(server, 'pglite', seconds.app));
        if (only.has('topups')) await section('topups.pglite', () => benchTopUps(server, 'pglite'));
        if (only.has('payouts')) await section('payouts.pglite', () => benchPayouts(server, 'pglite'));
        if (only.has('rush')) await section('rush.pglite', () => benchRush(server, 'pglite', quick));
      } finally {
        await server.close();
      }
    });

    if (!only.has('meinfo') && !only.has('ledger') && !only.has('topups') && !only.has('payouts') && !only.has('rush')) return;
    if (databaseUrl) {
      await section('postgres', async () => {
        // From an empty database, as PGlite's sections start: what an earlier run (the scale section's million
        // members) left would be measured too.
        await emptyDatabase(databaseUrl);
        const server = await startBenchServer({ url: databaseUrl });
        describeStart(server);
        try {
          if (only.has('meinfo')) {
            await section('meinfo.postgres', async () => {
              if (!floor) throw new Error('no floor measurement');
              await benchMeInfo(server, 'postgres', floor, seconds, false);
            });
          }
          if (only.has('ledger')) await section('ledger.postgres', () => benchLedger(server, 'postgres', seconds.app));
          if (only.has('topups')) await section('topups.postgres', () => benchTopUps(server, 'postgres'));
          if (only.has('payouts')) await section('payouts.postgres', () => benchPayouts(server, 'postgres'));
          if (only.has('rush')) await section('rush.postgres', () => benchRush(server, 'postgres', quick));
        } finally {
          await server.close();
        }
      });
    } else {
      detail('meinfo.postgres, ledger.postgres: skipped (DATABASE_URL unset)');
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const load = os.loadavg().map((value) => value.toFixed(2)).join(' ');
  console.log(
    `bench env: node ${process.version}, ${os.cpus().length} cpus, loadavg ${load}, ` +
      `postgres ${databaseUrl ? 'yes (DATABASE_URL)' : 'no (DATABASE_URL unset)'}${quick ? ', QUICK (not comparable)' : ''}` +
      (only.size < SECTIONS.length - 1 || only.has('scale') ? `, ONLY ${[...only].join(',')}` : ''),
  );

  if (only.has('bundle')) await section('bundle', () => benchBundle({ repoRoot, verbose }));
  if (only.has('lighthouse')) {
    await section('lighthouse', async () => {
      const server = await startServer();
      try {
        await benchLighthouse(server.url);
      } finally {
        await server.stop();
      }
    });
  }
  if (only.has('startup') || only.has('signin') || only.has('meinfo') || only.has('ledger') || only.has('topups') || only.has('payouts') || only.has('rush')) await serverSections(only);
  if (only.has('teamsearch')) await section('teamsearch', () => benchTeamSearch(quick));
  if (only.has('scale')) await section('scale', () => benchScale(databaseUrl, quick));

  const all = figures();
  const count = (verdict: string) => all.filter((figure) => figure.verdict === verdict).length;
  const misses = all.filter((figure) => figure.verdict === 'MISS').map((figure) => figure.name);
  console.log(
    `bench summary: ${all.length} figures, ${count('PASS')} PASS, ${count('MISS')} MISS, ${count('INFO')} INFO, ` +
      `${broken.length} broken, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (misses.length > 0) console.log(`bench summary: MISS ${misses.join(', ')}`);
  const hostSpread = hostLog.summary();
  if (hostSpread) console.log(`bench summary: ${hostSpread}`);
  if (broken.length > 0) console.log(`bench summary: BROKEN ${broken.join(', ')}`);
  process.exit(broken.length > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
