import { describeModelPaths } from '../support/describeModelPaths';
import { authModels } from './auth.model';

await describeModelPaths('auth', authModels);
