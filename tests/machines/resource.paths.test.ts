import { describeModelPaths } from './support/describeModelPaths';
import { resourceModel } from '../../scripts/machineGraph/resource.model';

await describeModelPaths('resource', [resourceModel]);
