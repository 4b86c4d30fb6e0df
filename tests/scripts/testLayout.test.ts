/**
 * Where tests and their helpers go (tests/README.md), checked on the files themselves: every file under tests/ that
 * is not a test is a helper under a support/ folder (or data in tests/data, types in tests/types); no two test files
 * share a name, nor a helper a name with any other source file but its own test beside it; and every test file is
 * one a project of vite.config.ts runs, so none sits where nothing runs it. The long files the sequencer starts first
 * are named by their paths, which must still be test files.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vite.config';
import { MEASURED } from '../support/longestFirstSequencer';

const root = path.resolve(import.meta.dirname, '../..');
/** What is not the repository's source: installs, builds, local data, reports, and the generated docs. */
const notSource = new Set(['.git', 'node_modules', 'dist', 'data', 'backups', 'coverage', 'test-results', 'docs']);
/** The folders of tests/ that hold neither tests nor helpers (tests/README.md, "Helpers and data"). */
const dataFolders = ['tests/data/', 'tests/types/'];

const sourcePattern = /\.(?:d\.)?(?:ts|tsx|mts|cts|js|mjs|cjs)$/;
const testPattern = /\.(?:test|spec)\.(?:ts|tsx)$/;

/** Every file under a folder of the repository, as a path from the root with forward slashes. */
function filesUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) return folder === '' && notSource.has(entry.name) ? [] : filesUnder(relative);
    return [relative];
  });
}

const everyFile = filesUnder('');
const sources = everyFile.filter((file) => sourcePattern.test(file));
const tests = sources.filter((file) => testPattern.test(file));
const isTest = (file: string) => testPattern.test(file);

/** A test's name: its file name without .test/.spec and the extension (`login.uiPaths` for login.uiPaths.test.tsx). */
const testName = (file: string) => path.posix.basename(file).replace(testPattern, '');
/** A module's name: its file name without the extension (`testChain` for testChain.ts, `protocol` for protocol.d.ts). */
const moduleName = (file: string) => path.posix.basename(file).replace(sourcePattern, '');

/** The names shared by more than one file, each with its files. */
function sharedNames(files: readonly string[], nameOf: (file: string) => string): string[] {
  const byName = new Map<string, string[]>();
  for (const file of files) byName.set(nameOf(file), [...(byName.get(nameOf(file)) ?? []), file]);
  return [...byName].filter(([, named]) => named.length > 1).map(([name, named]) => `${name}: ${named.join(', ')}`);
}

describe('the tests and their helpers', () => {
  it('finds the files it checks', () => {
    expect(tests.length).toBeGreaterThan(200);
    expect(everyFile.filter((file) => file.startsWith('tests/')).length).toBeGreaterThan(200);
  });

  it('behavior: every file under tests/ that is not a test is under a support/ folder, or is data or types', () => {
    const misplaced = everyFile.filter(
      (file) =>
        file.startsWith('tests/') &&
        !isTest(file) &&
        file !== 'tests/README.md' &&
        !file.includes('/support/') &&
        !dataFolders.some((folder) => file.startsWith(folder)),
    );
    expect(misplaced, 'files under tests/ that are neither a test nor under a support/ folder (tests/README.md, "Helpers and data")').toEqual([]);
  });

  it('behavior: no two test files share a name, so `npx vitest run <name>` runs one file', () => {
    expect(sharedNames(tests, testName), 'test files with the same name (rename one to say what kind of test it is: tests/README.md, "Names")').toEqual([]);
  });

  it('behavior: no helper shares its name with another source file, but for its own test beside it', () => {
    const helpers = sources.filter((file) => file.startsWith('tests/') && !isTest(file));
    const clashes = helpers.flatMap((helper) => {
      const others = sources.filter(
        (file) =>
          file !== helper &&
          (isTest(file) ? testName(file) : moduleName(file)) === moduleName(helper) &&
          !(isTest(file) && path.posix.dirname(file) === path.posix.dirname(helper)),
      );
      return others.length > 0 ? [`${helper}: ${others.join(', ')}`] : [];
    });
    expect(clashes, 'helpers named like another source file (rename the helper to say what it is: tests/README.md, "Names")').toEqual([]);
  });

  it('behavior: every test file is one a vitest project runs', () => {
    const projects = (config.test?.projects ?? []).flatMap((project) =>
      typeof project === 'object' && 'test' in project && project.test ? [{ include: project.test.include ?? [], exclude: project.test.exclude ?? [] }] : [],
    );
    expect(projects.length).toBeGreaterThan(2);
    const matches = (file: string, globs: readonly string[]) => globs.some((glob) => path.posix.matchesGlob(file, glob));
    const runNowhere = tests.filter((file) => !projects.some((project) => matches(file, project.include) && !matches(file, project.exclude)));
    expect(runNowhere, 'test files no project of vite.config.ts includes (tests/README.md, "Where a test goes")').toEqual([]);
  });

  it('behavior: every long file the sequencer starts first is a test file of the repository', () => {
    const gone = Object.keys(MEASURED).filter((file) => !tests.includes(file));
    expect(gone, 'files tests/support/longestFirstSequencer.ts names in MEASURED that are no test file (moved or renamed?)').toEqual([]);
  });
});
