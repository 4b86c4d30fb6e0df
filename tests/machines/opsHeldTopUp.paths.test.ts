import { describeModelPaths } from '../support/describeModelPaths';
import { heldTopUpModels } from '../../machines/ops/opsPathModels';

await describeModelPaths('heldTopUp', heldTopUpModels);
