import { describeModelPaths } from './support/describeModelPaths';
import { walletModel } from '../../scripts/machineGraph/wallet.model';

await describeModelPaths('wallet', [walletModel]);
