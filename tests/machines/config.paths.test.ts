import { describeModelPaths } from './support/describeModelPaths';
import { configModel } from '../../scripts/machineGraph/config.model';

await describeModelPaths('config', [configModel]);
