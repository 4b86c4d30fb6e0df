import { describeModelPaths } from '../support/describeModelPaths';
import { withdrawalBulkApprovalModels } from '../../machines/ops/opsPathModels';

await describeModelPaths('withdrawalBulkApproval', withdrawalBulkApprovalModels);
