/**
 * npm run atlas: the product owner's atlas (ADR 0020), a static site under docs/atlas/ built from the
 * machines: per language an index of the machines grouped as a member meets them and a page per machine (ELK
 * diagrams in SVG, every state and transition with its zh or en text, screens, codes in words, decision records,
 * test paths and journeys as storyboards).
 *
 *   npm run atlas                  takes the screenshots (Chromium, 375 px, zh and en) and writes the site
 *   npm run atlas -- --no-shots    writes the site from the screenshots already in docs/atlas/shots
 *   npm run atlas -- --check       writes nothing; fails when a state or transition lacks its zh or en text, a
 *                                  text has no state or transition, a state has no screen listed, a screenshot
 *                                  is missing, or a committed page differs from what the machines generate
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readAtlas } from './atlas/model';
import { renderIndex, renderMachinePage } from './atlas/render';
import type { CommonTexts, RenderContext } from './atlas/render';
import { screenOf, shotsInUse, transitionScreens } from './atlas/screens';
import { journeysOf } from './atlas/journeys';
import { atlasLanguages, atlasTexts } from './machineGraph/texts';
import { atlasProblems } from './atlas/check';
import { atlasAssets } from './atlas/assets';
import { convertShots } from './atlas/shots';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'docs', 'atlas');
const shotsDir = path.join(outDir, 'shots');
const args = new Set(process.argv.slice(2));
const check = args.has('--check');
const started = Date.now();

async function decisionTitles(): Promise<Map<string, string>> {
  const dir = path.join(root, 'docs', 'decisions');
  const titles = new Map<string, string>();
  for (const file of await readdir(dir)) {
    if (!file.endsWith('.md')) continue;
    const first = (await readFile(path.join(dir, file), 'utf8')).split('\n')[0] ?? '';
    titles.set(file.replace(/\.md$/, ''), first.replace(/^#\s*/, ''));
  }
  return titles;
}

async function existingShots(): Promise<Set<string>> {
  const files = await readdir(shotsDir).catch(() => [] as string[]);
  return new Set(files);
}

if (!check && !args.has('--no-shots')) {
  // The screens, in Chromium through the e2e harness (real server, test wallet), then made small for the repo.
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'e2e', 'tests/e2e/atlas.shots.zh.spec.ts', 'tests/e2e/atlas.shots.en.spec.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ATLAS_SHOTS: '1' },
  });
  if (run.error) throw run.error;
  if (run.status !== 0) console.warn('atlas: some screens could not be reached (see above); the site is written with the shots there are');
  await convertShots(shotsInUse(), shotsDir);
}

const machines = await readAtlas();
const decisions = await decisionTitles();
const shots = await existingShots();
const problems = atlasProblems(machines, {
  texts: Object.fromEntries(atlasLanguages.map((lng) => [lng, atlasTexts(lng)])) as Record<(typeof atlasLanguages)[number], Record<string, string>>,
  shots,
});

// A missing screenshot fails the check, but the build still writes the pages (their image shows as missing).
const blocking = check ? problems : problems.filter((line) => !line.includes('docs/atlas/shots/'));
const files = new Map<string, string>();
if (blocking.length === 0) {
  const journeys = await journeysOf(machines);
  for (const lng of atlasLanguages) {
    const common = JSON.parse(await readFile(path.join(root, 'locales', lng, 'common.json'), 'utf8')) as CommonTexts;
    const ctx: RenderContext = { lng, texts: atlasTexts(lng), otherTexts: atlasTexts(lng === 'zh' ? 'en' : 'zh'), common, decisions, screenOf, shotAfter: (key) => transitionScreens[key] ?? null, journeys };
    files.set(`${lng}/index.html`, renderIndex(ctx, machines));
    for (const machine of machines) files.set(`${lng}/${machine.name}.html`, await renderMachinePage(ctx, machine));
  }
  for (const [name, text] of Object.entries(atlasAssets)) files.set(name, text);
}

if (problems.length > 0) {
  console.error(`atlas: ${problems.length} problem(s):\n${problems.map((line) => `  - ${line}`).join('\n')}`);
  if (blocking.length > 0) process.exit(1);
  process.exitCode = 1;
}

if (check) {
  const stale: string[] = [];
  for (const [name, text] of files) {
    const committed = await readFile(path.join(outDir, name), 'utf8').catch(() => null);
    if (committed !== text) stale.push(name);
  }
  const expected = new Set(files.keys());
  for (const lng of atlasLanguages) {
    for (const file of await readdir(path.join(outDir, lng)).catch(() => [] as string[])) {
      if (!expected.has(`${lng}/${file}`)) stale.push(`${lng}/${file} (no machine)`);
    }
  }
  if (stale.length > 0) {
    console.error(`docs/atlas is stale (${stale.join(', ')}): run npm run atlas -- --no-shots (or npm run atlas to take the screenshots again) and commit the result.`);
    process.exit(1);
  }
  console.log(`docs/atlas is up to date (${files.size} files, ${shots.size} screenshots) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} else {
  for (const lng of atlasLanguages) await rm(path.join(outDir, lng), { recursive: true, force: true });
  for (const [name, text] of files) {
    const target = path.join(outDir, name);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  let bytes = 0;
  for (const file of await existingShots()) bytes += (await stat(path.join(shotsDir, file))).size;
  console.log(`wrote ${files.size} files to docs/atlas (${shots.size} screenshots, ${(bytes / 1024).toFixed(0)} KiB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
