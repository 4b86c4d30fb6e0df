import { describeModelPaths } from './support/describeModelPaths';
import { withdrawalBulkApprovalModels } from '../../scripts/machineGraph/ops.model';

await describeModelPaths('withdrawalBulkApproval', withdrawalBulkApprovalModels);
