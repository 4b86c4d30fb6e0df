import { describeModelPaths } from './support/describeModelPaths';
import { noticePublicationModels } from '../../scripts/machineGraph/noticePublication.model';

await describeModelPaths('noticePublication', noticePublicationModels);
