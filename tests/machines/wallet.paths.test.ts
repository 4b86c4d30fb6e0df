import { describeModelPaths } from '../support/describeModelPaths';
import { walletModel } from './wallet.model';

await describeModelPaths('wallet', [walletModel]);
