import { describeModelPaths } from './support/describeModelPaths';
import { orderShippingModels } from '../../scripts/machineGraph/ops.model';

await describeModelPaths('orderShipping', orderShippingModels);
