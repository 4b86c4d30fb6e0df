import { describeModelPaths } from '../support/describeModelPaths';
import { configModel } from './config.model';

await describeModelPaths('config', [configModel]);
