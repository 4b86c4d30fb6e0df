import { describeModelPaths } from './support/describeModelPaths';
import { transferModel } from '../../scripts/machineGraph/transfer.model';

await describeModelPaths('transfer', [transferModel]);
