import { describeModelPaths } from '../support/describeModelPaths';
import { opsActionModel } from '../../machines/ops/opsPathModels';

await describeModelPaths('opsAction', [opsActionModel]);
