import { describeModelPaths } from './support/describeModelPaths';
import { heldTopUpModels } from '../../scripts/machineGraph/ops.model';

await describeModelPaths('heldTopUp', heldTopUpModels);
