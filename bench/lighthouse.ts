/**
 * Lighthouse's mobile run (its defaults: a Moto G Power-sized screen, simulated slow 4G and a 4× slower CPU) of
 * /login/DEMO2026 as a member opens it from an invite, against the project's own server (the built SPA, compressed
 * as it sends it, and the seeded API), in Debian's Chromium. Three runs; each figure is the median of the three.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumPath } from '../tests/e2e/support/browser';
import { detail, emit, type Verdict } from './report';

const RUNS = 3;
const PAGE = '/login/DEMO2026';

interface RunFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** total-byte-weight: every answer's transferSize, as Lighthouse counts the page's weight. */
  bytes: number;
  /** network-requests, heaviest first: what the bytes are. */
  requests: LoadedRequest[];
}

interface LoadedRequest {
  url: string;
  transferSize: number;
  resourceType: string;
}

/** The rows of the network-requests audit's table (Lighthouse types its details loosely). */
const requestRows = (details: unknown): LoadedRequest[] => {
  const items = (details as { items?: unknown } | undefined)?.items;
  if (!Array.isArray(items)) return [];
  return items
    .map((item) => item as { url?: unknown; transferSize?: unknown; resourceType?: unknown })
    .map((item) => ({ url: String(item.url), transferSize: Number(item.transferSize ?? 0), resourceType: String(item.resourceType ?? '') }));
};

const KIB = 1024;
const kib = (bytes: number): string => `${(bytes / KIB).toFixed(1)} KiB`;
/** The goal for what Lighthouse counts on the wire for the invite page. */
const BYTES_GOAL = 150 * KIB;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function runOnce(url: string): Promise<RunFigures> {
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    if (!result) throw new Error('lighthouse returned no result');
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? Number.NaN) * 100);
    const metric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
    const failed = Object.values(audits)
      .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
      .map((audit) => audit.id);
    if (failed.length > 0) detail(`lighthouse: failed audits: ${failed.join(', ')}`);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      fcp: metric('first-contentful-paint'),
      lcp: metric('largest-contentful-paint'),
      tbt: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
      bytes: metric('total-byte-weight'),
      requests: requestRows(audits['network-requests']?.details).sort((a, b) => b.transferSize - a.transferSize),
    };
  } finally {
    await chrome.kill();
  }
}

const atLeast = (value: number, goal: number): Verdict => (value >= goal ? 'PASS' : 'MISS');
const atMostValue = (value: number, goal: number): Verdict => (value <= goal ? 'PASS' : 'MISS');

/**
 * Runs Lighthouse three times on /login/DEMO2026 of the given server and prints the medians against the goals.
 *
 * @param origin - the running app server, e.g. http://127.0.0.1:41234
 * @example
 * await benchLighthouse(server.url);
 */
export async function benchLighthouse(origin: string): Promise<void> {
  const runs: RunFigures[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const figures = await runOnce(`${origin}${PAGE}`);
    const answers = figures.requests.map((request) => `${new URL(request.url).pathname} ${kib(request.transferSize)}`);
    detail(`lighthouse run ${run + 1}: ${kib(figures.bytes)} in ${figures.requests.length} answers: ${answers.join(', ')}`);
    detail(
      `lighthouse run ${run + 1}: performance ${figures.performance}, FCP ${(figures.fcp / 1000).toFixed(2)} s, LCP ${(figures.lcp / 1000).toFixed(2)} s, ` +
        `TBT ${figures.tbt.toFixed(0)} ms, CLS ${figures.cls.toFixed(3)}, accessibility ${figures.accessibility}, best practices ${figures.bestPractices}, SEO ${figures.seo}`,
    );
    runs.push(figures);
  }
  const of = (key: Exclude<keyof RunFigures, 'requests'>) => median(runs.map((figures) => figures[key]));
  const note = `median of ${RUNS} mobile runs of ${PAGE}`;
  emit({ name: 'lighthouse.performance', value: String(of('performance')), floor: 'n/a', target: 'goal >= 95', verdict: atLeast(of('performance'), 95), note });
  emit({ name: 'lighthouse.fcp', value: `${(of('fcp') / 1000).toFixed(2)} s`, floor: 'n/a', target: '-', verdict: 'INFO', note });
  emit({ name: 'lighthouse.lcp', value: `${(of('lcp') / 1000).toFixed(2)} s`, floor: 'n/a', target: 'goal <= 1.80 s', verdict: atMostValue(of('lcp'), 1800), note });
  emit({ name: 'lighthouse.tbt', value: `${of('tbt').toFixed(0)} ms`, floor: 'n/a', target: 'goal <= 150 ms', verdict: atMostValue(of('tbt'), 150), note });
  emit({ name: 'lighthouse.cls', value: of('cls').toFixed(3), floor: 'n/a', target: 'goal <= 0.02', verdict: atMostValue(of('cls'), 0.02), note });
  emit({ name: 'lighthouse.bytes', value: kib(of('bytes')), floor: 'n/a', target: `goal <= ${kib(BYTES_GOAL)}`, verdict: atMostValue(of('bytes'), BYTES_GOAL), note });
  emit({ name: 'lighthouse.accessibility', value: String(of('accessibility')), floor: 'n/a', target: 'goal >= 95', verdict: atLeast(of('accessibility'), 95), note });
  emit({ name: 'lighthouse.bestPractices', value: String(of('bestPractices')), floor: 'n/a', target: 'goal >= 95', verdict: atLeast(of('bestPractices'), 95), note });
  emit({ name: 'lighthouse.seo', value: String(of('seo')), floor: 'n/a', target: 'goal >= 95', verdict: atLeast(of('seo'), 95), note });
}
