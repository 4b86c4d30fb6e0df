import { describeModelPaths } from './support/describeModelPaths';
import { topUpModels } from '../../scripts/machineGraph/topUp.model';

await describeModelPaths('topUp', topUpModels);
