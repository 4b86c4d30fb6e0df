/**
 * The repository stands alone for whoever clones it (CONTRIBUTING.md): README fits on a few screens, no file cites
 * documents a clone does not have (the team's design notes, its tracker's issue numbers), every decision record
 * says when it was taken and whether it still holds, and the docs' relative links lead somewhere.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
const textFiles = tracked.filter((file) => /\.(ts|tsx|js|mjs|cjs|json|md|css|html|sql|sh|yml|yaml|cfg|conf|toml)$|^\.ci\/|Dockerfile/.test(file));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

// Built from parts, so that this file does not match itself.
const outsideDocs = new RegExp(['DESIGN', 'STYLE'].map((name) => `\\b${name}\\.md\\b`).join('|'));
const trackerNumber = new RegExp(`\\b[Ii]ssues? #?\\d+\\b`);

describe('the repository stands alone', () => {
  it('README.md is at most 200 lines, none over 120 characters', () => {
    const lines = read('README.md').split('\n');
    expect(lines.length).toBeLessThanOrEqual(201);
    expect(lines.filter((line) => line.length > 120)).toEqual([]);
  });

  it('no file cites the design notes or an issue number of a tracker a clone does not have', () => {
    const citing = textFiles.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) => (outsideDocs.test(line) || trackerNumber.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 100)}`] : [])),
    );
    expect(citing).toEqual([]);
  });

  const decisions = tracked.filter((file) => /^docs\/decisions\/\d{4}-[\w-]+\.md$/.test(file));

  it('finds the decision records', () => {
    expect(decisions.length).toBeGreaterThan(30);
  });

  it.each(decisions)('%s has a date and a status, and stays under 60 lines', (file) => {
    const lines = read(file).split('\n');
    const head = lines.slice(0, 6).join('\n');
    expect(head).toMatch(/^# \d{4} \S/);
    expect(head).toMatch(/^- Date: \d{4}-\d{2}-\d{2}$/m);
    expect(head).toMatch(/^- Status: (accepted|proposed|superseded by \d{4}|accepted, partly superseded by \d{4})/m);
    expect(lines.filter((line) => line.trim() !== '').length).toBeLessThan(60);
    for (const [, number] of head.matchAll(/superseded by (?:ADR )?(\d{4})/g)) expect(decisions.some((other) => other.startsWith(`docs/decisions/${number}-`)), `${file} names ${number}`).toBe(true);
  });

  it('the docs\' relative links lead to files of the repository', () => {
    const docs = tracked.filter((file) => /^(README|CONTRIBUTING)\.md$|^docs\/[^/]+\.md$|^tests\/README\.md$|^bench\/README\.md$/.test(file));
    const broken = docs.flatMap((file) =>
      [...read(file).matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
        .map((match) => match[1] ?? '')
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(path.join(root, path.dirname(file), decodeURIComponent(target))))
        .map((target) => `${file} → ${target}`),
    );
    expect(broken).toEqual([]);
  });
});
