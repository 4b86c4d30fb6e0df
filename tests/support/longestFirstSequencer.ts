/**
 * The order files start in: the files known to be long first, longest first (MEASURED), then the other e2e files, then
 * the rest, each group in vitest's own order. On a clean clone (CI) vitest has no durations yet and starts larger files
 * first, so a short file with long waits (a kill suite, a journey waiting on blocks) could start last and leave one of
 * the two workers idle while it ran alone.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each long file took on CI's two cores (the run before the speed-ups), as a rank only: a
 * file past about 30 s joins here, a figure that drifts changes nothing but the order.
 */
export const MEASURED: Readonly<Record<string, number>> = {
  'tests/e2e/visual.en.spec.ts': 114,
  'tests/e2e/visual.zh.spec.ts': 104,
  // The operators' desk: one file per language, its 18 screens at two widths.
  'tests/e2e/visual.ops.zh.spec.ts': 115,
  'tests/e2e/visual.ops.en.spec.ts': 115,
  'tests/e2e/walletBrowsers.spec.ts': 90,
  'tests/e2e/topUp.spec.ts': 89,
  'tests/server/payerCrash.test.ts': 86,
  'tests/server/payer.test.ts': 51,
  'tests/server/topUpCrash.test.ts': 51,
  'tests/e2e/ops.spec.ts': 45,
  'tests/server/start.test.ts': 44,
  // Three instances behind HAProxy: mostly waiting on its processes, so it starts early.
  'tests/balancer/threeInstances.test.ts': 60,
};

const E2E = /\/tests\/e2e\//;

/** The file's path from the repository root, as MEASURED names it. */
const relativeOf = (specification: TestSpecification): string => {
  const root = specification.project.config.root.replace(/\/$/, '');
  return specification.moduleId.startsWith(`${root}/`) ? specification.moduleId.slice(root.length + 1) : specification.moduleId;
};

/** Known long files by their seconds; then e2e; then the rest. */
const rankOf = (specification: TestSpecification): [group: number, seconds: number] => {
  const seconds = MEASURED[relativeOf(specification)];
  if (seconds !== undefined) return [0, seconds];
  return [E2E.test(specification.moduleId) ? 1 : 2, 0];
};

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((specification, position) => ({ specification, position, rank: rankOf(specification) }))
      .sort((a, b) => a.rank[0] - b.rank[0] || b.rank[1] - a.rank[1] || a.position - b.position)
      .map(({ specification }) => specification);
  }
}
