import { describeModelPaths } from '../support/describeModelPaths';
import { orderShippingModels } from '../../machines/ops/opsPathModels';

await describeModelPaths('orderShipping', orderShippingModels);
