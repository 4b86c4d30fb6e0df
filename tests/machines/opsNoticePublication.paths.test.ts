import { describeModelPaths } from '../support/describeModelPaths';
import { noticePublicationModels } from '../../machines/ops/noticePathModels';

await describeModelPaths('noticePublication', noticePublicationModels);
