import { describeModelPaths } from '../support/describeModelPaths';
import { configModel, configModelFromStorage } from './config.model';

await describeModelPaths('config', [configModel, configModelFromStorage]);
