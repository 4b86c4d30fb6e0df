import { describeModelPaths } from './support/describeModelPaths';
import { opsSessionModels } from '../../scripts/machineGraph/ops.model';

await describeModelPaths('opsSession', opsSessionModels);
