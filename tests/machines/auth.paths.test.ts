import { describeModelPaths } from '../support/describeModelPaths';
import { authModel, authModelFromMainToken, authModelFromTempToken } from './auth.model';

await describeModelPaths('auth', [authModel, authModelFromTempToken, authModelFromMainToken]);
