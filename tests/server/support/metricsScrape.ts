/**
 * GET /metrics read as Prometheus reads it: every scrape is checked by Prometheus' own promtool (`check metrics`:
 * the text format parsed and linted against Prometheus' naming conventions; Debian's `prometheus` package, which
 * .ci/run installs), and the counters' and gauges' samples are read with parse-prometheus-text-format. That parser
 * keeps no labels of a histogram's samples, so a histogram's figures are read from the registry (prom-client's
 * get()) while promtool vouches for their text.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { expect } from 'vitest';

/** One sample of a family: its labels and value as written (numbers stay text: `+Inf`, `NaN`). */
export interface MetricSample {
  labels: Record<string, string>;
  value: string;
}

/**
 * Scrapes the app from loopback (METRICS_ALLOW's default) and parses the answer.
 *
 * @param app - the app
 * @returns the metric families
 * @example
 * const families = await scrape(app);
 */
export async function scrape(app: FastifyInstance): Promise<parsePrometheusTextFormat.MetricFamily[]> {
  const response = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
  expect(response.statusCode, response.body).toBe(200);
  expect(promtoolCheckMetrics(response.body)).toEqual({ status: 0, problems: '' });
  return parsePrometheusTextFormat(response.body);
}

/** Where Debian's prometheus package puts promtool. */
const PROMTOOL = '/usr/bin/promtool';

/**
 * `promtool check metrics` on a scrape's text: its exit status and what it found wrong (empty when nothing).
 *
 * @param text - the exposition text
 * @returns status and problems
 * @throws Error when promtool is not installed (apt-get install prometheus)
 * @example
 * expect(promtoolCheckMetrics(body)).toEqual({ status: 0, problems: '' });
 */
export function promtoolCheckMetrics(text: string): { status: number | null; problems: string } {
  if (!existsSync(PROMTOOL)) throw new Error(`${PROMTOOL} not found: apt-get install prometheus (as .ci/run does)`);
  const result = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { status: result.status, problems: `${result.stdout}${result.stderr}`.trim() };
}

/**
 * The samples of a counter or gauge family (none when the family has none or is absent).
 *
 * @param families - a scrape
 * @param name - the family's name
 * @returns its samples
 * @example
 * metricSamples(families, 'member_dapp_reconcile_ok'); // [{ labels: {}, value: '1' }]
 */
export function metricSamples(families: readonly parsePrometheusTextFormat.MetricFamily[], name: string): MetricSample[] {
  const family = families.find((candidate) => candidate.name === name);
  return (family?.metrics ?? []).map((sample) => ({ labels: sample.labels ?? {}, value: sample.value ?? '' }));
}

/**
 * The one value of an unlabelled (or singly labelled) gauge, as a number; undefined when it has no sample.
 *
 * @param families - a scrape
 * @param name - the family's name
 * @param labels - the sample's labels, when it has some
 * @returns the value
 * @example
 * gaugeValue(families, 'member_dapp_withdrawals', { stage: 'held' }); // 2
 */
export function gaugeValue(families: readonly parsePrometheusTextFormat.MetricFamily[], name: string, labels: Record<string, string> = {}): number | undefined {
  const sample = metricSamples(families, name).find((candidate) => Object.entries(labels).every(([key, value]) => candidate.labels[key] === value));
  if (sample === undefined) return undefined;
  // The format writes infinities as +Inf and -Inf, which Number() does not read.
  if (sample.value === '+Inf') return Number.POSITIVE_INFINITY;
  if (sample.value === '-Inf') return Number.NEGATIVE_INFINITY;
  return Number(sample.value);
}
