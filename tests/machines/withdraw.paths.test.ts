import { describeModelPaths } from './support/describeModelPaths';
import { withdrawModel } from '../../scripts/machineGraph/withdraw.model';

await describeModelPaths('withdraw', [withdrawModel]);
