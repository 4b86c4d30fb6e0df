import { describeModelPaths } from './support/describeModelPaths';
import { pagedListModel } from '../../scripts/machineGraph/pagedList.model';

await describeModelPaths('pagedList', [pagedListModel]);
