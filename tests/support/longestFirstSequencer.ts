/**
 * The order files start in: the visual check's two files first, then the other e2e files, then the rest, each group
 * in vitest's own order. On a clean clone vitest has no durations yet and starts larger files first, so the small
 * visual spec files (minutes each) started last and left one core idle at the end while they ran.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const GROUPS = [/\/tests\/e2e\/visual\.[a-z]+\.spec\.ts$/, /\/tests\/e2e\//];

const groupOf = (specification: TestSpecification): number => {
  const index = GROUPS.findIndex((pattern) => pattern.test(specification.moduleId));
  return index === -1 ? GROUPS.length : index;
};

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((specification, position) => ({ specification, position, group: groupOf(specification) }))
      .sort((a, b) => a.group - b.group || a.position - b.position)
      .map(({ specification }) => specification);
  }
}
