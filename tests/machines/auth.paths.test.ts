import { describeModelPaths } from './support/describeModelPaths';
import { authModels } from '../../scripts/machineGraph/auth.model';

await describeModelPaths('auth', authModels);
