/**
 * npm run screenshots: refreshes the README's screenshots, docs/screenshots/{login,home}.{en,zh}.png. It runs the
 * /login and /home tests of the visual spec (tests/e2e/visual.{zh,en}.spec.ts: real server, Debian Chromium,
 * the test wallet, a 375×812 phone at 2×), which write test-results/visual/<screen>.<lng>.light.png, and copies
 * those. Their checks may fail (see test-results/visual/report-<lng>.txt): the images are copied all the same, since
 * they show the screens as they are; `npm test` is what judges them. With --no-run it only copies the images a
 * previous run of the visual spec left.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = path.join(root, 'test-results', 'visual');
const targetDir = path.join(root, 'docs', 'screenshots');
const screens = ['login', 'home'];
const languages = ['en', 'zh'];

const started = Date.now();
if (!process.argv.includes('--no-run')) {
  // -t matches "<describe> <test>", e.g. "screens in en home (/home)" (which writes light and dark); the harness signs in
  // as far as home needs.
  const filter = `screens in (en|zh) (${screens.join('|')}) \\(`;
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'e2e', 'tests/e2e/visual.zh.spec.ts', 'tests/e2e/visual.en.spec.ts', '-t', filter], {
    cwd: root,
    stdio: 'inherit',
    // Every screen's image, not only those of screens that fail a check (tests/e2e/support/visual.ts).
    env: { ...process.env, VISUAL_SCREENSHOTS: '1' },
  });
  if (run.error) throw run.error;
  if (run.status !== 0) console.warn('screenshots: the visual checks of these screens failed (test-results/visual/report-<lng>.txt); copying the images anyway');
}

await mkdir(targetDir, { recursive: true });
const missing: string[] = [];
for (const screen of screens) {
  for (const lng of languages) {
    const source = path.join(sourceDir, `${screen}.${lng}.light.png`);
    const info = await stat(source).catch(() => null);
    const fresh = info !== null && (process.argv.includes('--no-run') || info.mtimeMs >= started);
    if (!fresh) {
      missing.push(path.relative(root, source));
      continue;
    }
    const target = path.join(targetDir, `${screen}.${lng}.png`);
    await copyFile(source, target);
    console.log(`screenshots: ${path.relative(root, target)}`);
  }
}
if (missing.length > 0) {
  console.error(`screenshots: not written by the visual spec: ${missing.join(', ')}`);
  process.exit(1);
}
