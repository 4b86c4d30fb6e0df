/**
 * Prints one plain closing line, "vitest: N passed, N failed, N skipped", after the default reporter, so CI
 * can read the counts of a vitest run without knowing vitest's own summary format. Also writes
 * test-results/timeline.tsv: when each file started and ended, in seconds from the run's start, and how long its
 * import took, so a slow run shows which files ran side by side and where one of the two workers sat idle
 * (bench/README.md, "Where the CPU goes"). Not the environment's set-up: with isolate false it is the worker's one
 * set-up, which vitest repeats in each file's figure.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  private readonly runStart = performance.now();
  private readonly spans = new Map<string, { project: string; start: number; end?: number; collect?: number }>();

  onTestModuleStart(testModule: TestModule): void {
    this.spans.set(testModule.moduleId, { project: testModule.project.name, start: performance.now() });
  }

  onTestModuleEnd(testModule: TestModule): void {
    const span = this.spans.get(testModule.moduleId);
    if (!span) return;
    span.end = performance.now();
    // Importing the file (and what it imports, unless the worker has it already).
    span.collect = testModule.diagnostic().collectDuration;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      let failedHere = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedHere += 1;
        else skipped += 1;
      }
      // A file that failed outside its tests (an import, a beforeAll: its tests then read as skipped) counts once.
      failed += testModule.state() === 'failed' && failedHere === 0 ? 1 : failedHere;
    }
    failed += unhandledErrors.length;
    this.writeTimeline();
    console.log(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }

  private writeTimeline(): void {
    const seconds = (at: number) => ((at - this.runStart) / 1000).toFixed(1);
    const duration = (ms: number | undefined) => (ms === undefined ? '' : (ms / 1000).toFixed(1));
    const rows = [...this.spans.entries()]
      .sort(([, a], [, b]) => a.start - b.start)
      .map(([moduleId, span]) =>
        [seconds(span.start), span.end === undefined ? '' : seconds(span.end), duration(span.collect), span.project, path.relative(process.cwd(), moduleId)].join('\t'),
      );
    const dir = path.join(process.cwd(), 'test-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'timeline.tsv'), `${['start_s', 'end_s', 'collect_s', 'project', 'file'].join('\t')}\n${rows.join('\n')}\n`);
  }
}
