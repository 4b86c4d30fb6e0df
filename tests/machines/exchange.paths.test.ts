import { describeModelPaths } from './support/describeModelPaths';
import { exchangeModel } from '../../scripts/machineGraph/exchange.model';

await describeModelPaths('exchange', [exchangeModel]);
