/**
 * The Prometheus alert rules docs/deploy ships (docs/deploy/prometheus/member-dapp.rules.yml): valid for Prometheus'
 * own checker, each rule fired and kept quiet by its figures in promtool's rule tests, the same alerts as the
 * server's own rules, and every metric they read one the app's /metrics exports.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ALERT_RULES } from '../../server/alerts/rules';
import { describeWithDatabases } from './support/harness';

const run = promisify(execFile);
const RULES_DIR = path.resolve(import.meta.dirname, '../../docs/deploy/prometheus');
const RULES = path.join(RULES_DIR, 'member-dapp.rules.yml');

describeWithDatabases('Prometheus alert rules of docs/deploy', (ctx) => {
  it('pass promtool check rules and promtool test rules', async () => {
    const check = await run('promtool', ['check', 'rules', RULES]);
    expect(check.stdout).toMatch(/SUCCESS: \d+ rules found/);
    const tested = await run('promtool', ['test', 'rules', 'member-dapp.rules.test.yml'], { cwd: RULES_DIR });
    expect(`${tested.stdout}${tested.stderr}`).toMatch(/SUCCESS/);
  });

  it("name every alert the server judges, and read only metrics the app's registry exports", async () => {
    const text = await readFile(RULES, 'utf8');
    const alerts = [...text.matchAll(/^\s+- alert: (\w+)$/gm)].map((match) => match[1]);
    expect(alerts).toEqual(expect.arrayContaining(ALERT_RULES.map((rule) => rule.name)));
    const app = await ctx.app();
    const exported = new Set((await app.metrics.registry.getMetricsAsJSON()).map((metric) => metric.name));
    const read = new Set([...text.matchAll(/\b(member_dapp_\w+)/g)].map((match) => match[1] ?? ''));
    expect([...read].filter((name) => !exported.has(name))).toEqual([]);
    expect(read.size).toBeGreaterThan(10);
  });
});
