import { describeModelPaths } from './support/describeModelPaths';
import { opsActionModel } from '../../scripts/machineGraph/ops.model';

await describeModelPaths('opsAction', [opsActionModel]);
