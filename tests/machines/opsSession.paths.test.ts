import { describeModelPaths } from '../support/describeModelPaths';
import { opsSessionModels } from '../../machines/ops/opsPathModels';

await describeModelPaths('opsSession', opsSessionModels);
