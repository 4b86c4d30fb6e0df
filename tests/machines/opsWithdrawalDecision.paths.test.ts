import { describeModelPaths } from './support/describeModelPaths';
import { withdrawalDecisionModels } from '../../scripts/machineGraph/ops.model';

await describeModelPaths('withdrawalDecision', withdrawalDecisionModels);
