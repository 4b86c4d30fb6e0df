import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { needsBuild } from '../../scripts/start.mjs';

describe('npm start: needsBuild', () => {
  let root: string;
  const at = (iso: string) => new Date(iso);

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'md-start-'));
    await mkdir(path.join(root, 'src', 'routes'), { recursive: true });
    await writeFile(path.join(root, 'index.html'), '<html>');
    await writeFile(path.join(root, 'src', 'routes', 'home.tsx'), 'x');
    await utimes(path.join(root, 'index.html'), at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z'));
    await utimes(path.join(root, 'src', 'routes', 'home.tsx'), at('2026-01-02T00:00:00Z'), at('2026-01-02T00:00:00Z'));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** A build at `iso` that read `inputs` (as scripts/vite/buildInputsPlugin.ts records them). */
  async function build(iso: string, inputs: string[] = ['index.html', 'src/routes/home.tsx']) {
    await mkdir(path.join(root, 'dist', 'spa', '.vite'), { recursive: true });
    await writeFile(path.join(root, 'dist', 'spa', 'index.html'), '<html>');
    await writeFile(path.join(root, 'dist', 'spa', '.vite', 'inputs.json'), JSON.stringify(inputs));
    await utimes(path.join(root, 'dist', 'spa', 'index.html'), at(iso), at(iso));
  }

  async function touch(file: string, iso: string) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), 'x');
    await utimes(path.join(root, file), at(iso), at(iso));
  }

  it('behavior: builds when dist/spa is missing', () => {
    expect(needsBuild(root)).toBe(true);
  });

  it('behavior: skips the build when dist/spa is newer than src/ and index.html', async () => {
    await build('2026-01-03T00:00:00Z');
    expect(needsBuild(root)).toBe(false);
  });

  it('behavior: builds again when a nested source file is newer', async () => {
    await build('2026-01-03T00:00:00Z');
    await utimes(path.join(root, 'src', 'routes', 'home.tsx'), at('2026-01-04T00:00:00Z'), at('2026-01-04T00:00:00Z'));
    expect(needsBuild(root)).toBe(true);
  });

  it('behavior: builds again when index.html is newer', async () => {
    await build('2026-01-03T00:00:00Z');
    await utimes(path.join(root, 'index.html'), at('2026-01-05T00:00:00Z'), at('2026-01-05T00:00:00Z'));
    expect(needsBuild(root)).toBe(true);
  });

  it.each(['machines/wallet/walletMachine.ts', 'api-schema/codes.ts', 'vite.config.ts', 'scripts/vite/cspMetaPlugin.ts', 'package-lock.json'])(
    'behavior: builds again when %s, which the build read, is newer (not only src/ and index.html)',
    async (file) => {
      await touch(file, '2026-01-02T00:00:00Z');
      await build('2026-01-03T00:00:00Z', ['index.html', 'src/routes/home.tsx', file]);
      expect(needsBuild(root)).toBe(false);
      await touch(file, '2026-01-04T00:00:00Z');
      expect(needsBuild(root)).toBe(true);
    },
  );

  it('behavior: builds again when a file the build read is gone', async () => {
    await touch('machines/old.ts', '2026-01-02T00:00:00Z');
    await build('2026-01-03T00:00:00Z', ['index.html', 'machines/old.ts']);
    await rm(path.join(root, 'machines', 'old.ts'));
    expect(needsBuild(root)).toBe(true);
  });

  it('behavior: builds again when the build left no record of its inputs (or an unreadable one)', async () => {
    await build('2026-01-03T00:00:00Z');
    await rm(path.join(root, 'dist', 'spa', '.vite', 'inputs.json'));
    expect(needsBuild(root)).toBe(true);
    await writeFile(path.join(root, 'dist', 'spa', '.vite', 'inputs.json'), '{');
    expect(needsBuild(root)).toBe(true);
  });
});
