import { describeModelPaths } from '../support/describeModelPaths';
import { withdrawalDecisionModels } from '../../machines/ops/opsPathModels';

await describeModelPaths('withdrawalDecision', withdrawalDecisionModels);
