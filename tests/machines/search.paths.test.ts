import { describeModelPaths } from './support/describeModelPaths';
import { searchModel } from '../../scripts/machineGraph/search.model';

await describeModelPaths('search', [searchModel]);
