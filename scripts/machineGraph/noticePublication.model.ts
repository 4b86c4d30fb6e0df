/**
 * The notice publication machine's test models (machines/ops/noticePublicationMachine.ts), for its generated path
 * tests (tests/machines/opsNoticePublication.paths.test.ts), the diagrams and the atlas (listed in ops.model.ts'
 * opsMachineEntries). Two starts, so each graph stays small: a new notice written, saved as a draft and published;
 * a published, pinned notice unpinned, pinned, unpublished and edited. Data only: nothing here runs.
 */
import { noticePublicationMachine } from '../../machines/ops/noticePublicationMachine';
import type { EditableNotice, SavedNotice } from '../../machines/ops/noticePublicationMachine';
import type { MachineModel, ModelEvent } from './modelPaths';
import type { MachineEntry } from './modelPaths';

const ok = <T>(result: T) => ({ code: 0, result });
const refused = (code: number) => ({ code, result: null });
const done = (id: string, output: unknown): ModelEvent => ({ type: `xstate.done.actor.${id}`, output });
const thrown = (id: string, name = 'TypeError'): ModelEvent => ({ type: `xstate.error.actor.${id}`, error: { name } });

/** The seed's welcome notice, published and pinned, in both languages. */
export const pinnedNotice: EditableNotice = {
  id: 'welcome',
  published: true,
  pinned: true,
  publishedAt: '2026-11-20T08:00:00.000Z',
  zh: { title: '欢迎', summary: '欢迎加入', body: '<p>欢迎加入</p>' },
  en: { title: 'Welcome', summary: 'Welcome aboard', body: '<p>Welcome aboard</p>' },
};

/** The new notice as the server answers its save: a draft, its script left out by the sanitiser. */
const savedDraft: SavedNotice = {
  id: 'rules',
  published: false,
  pinned: false,
  publishedAt: null,
  zh: { title: '规则', summary: '规则', body: '<p>规则</p>' },
  en: null,
  preview: { zh: '<p>规则</p>', en: null, changedBySanitiser: true },
};

const { preview: _preview, ...draftNotice } = savedDraft;

const newNoticeEvents: ModelEvent[] = [
  { type: 'id.change', id: 'welcome' },
  { type: 'id.change', id: 'rules' },
  { type: 'draft.change', lang: 'zh', field: 'title', value: '规则' },
  { type: 'draft.change', lang: 'zh', field: 'body', value: '<p>规则</p><script>alert(1)</script>' },
  { type: 'en.toggle', withEn: false },
  { type: 'user.preview' },
  { type: 'user.edit' },
  { type: 'user.save' },
  { type: 'user.publish' },
  { type: 'user.retry' },
  { type: 'user.cancel' },
  done('save', ok(savedDraft)),
  done('save', refused(1001)),
  thrown('save'),
  done('publish', ok({ ...draftNotice, published: true, publishedAt: '2026-11-27T10:00:00.000Z' })),
];

const publishedEvents: ModelEvent[] = [
  { type: 'user.edit' },
  { type: 'user.preview' },
  { type: 'user.save' },
  { type: 'user.pin' },
  { type: 'user.unpin' },
  { type: 'user.unpublish' },
  { type: 'user.retry' },
  { type: 'user.cancel' },
  done('save', ok({ ...pinnedNotice, preview: { zh: pinnedNotice.zh.body, en: pinnedNotice.en?.body ?? null, changedBySanitiser: false } })),
  done('publish', ok({ ...pinnedNotice, pinned: false })),
  done('publish', ok({ ...pinnedNotice, published: false, pinned: false, publishedAt: null })),
  done('publish', refused(4004)),
  thrown('publish'),
];

export const noticePublicationModels: MachineModel[] = [
  { name: 'noticePublication (new)', machine: noticePublicationMachine, input: { notice: null, takenIds: ['welcome'] }, events: newNoticeEvents },
  { name: 'noticePublication (published, pinned)', machine: noticePublicationMachine, input: { notice: pinnedNotice, takenIds: ['welcome'] }, events: publishedEvents },
];

/** The machine's entry for the diagrams index and the atlas. */
export const noticePublicationEntry: MachineEntry = {
  name: 'noticePublication',
  source: 'machines/ops/noticePublicationMachine.ts',
  summary: 'A notice written in zh and en, previewed as members will see it (the sanitiser rule), saved as a draft, published, pinned or unpinned, unpublished.',
  models: noticePublicationModels,
};
