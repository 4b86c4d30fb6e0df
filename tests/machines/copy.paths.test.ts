import { describeModelPaths } from '../support/describeModelPaths';
import { copyModel } from './copy.model';

await describeModelPaths('copy', [copyModel]);
