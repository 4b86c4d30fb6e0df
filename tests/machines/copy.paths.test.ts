import { describeModelPaths } from './support/describeModelPaths';
import { copyModel } from '../../scripts/machineGraph/copy.model';

await describeModelPaths('copy', [copyModel]);
