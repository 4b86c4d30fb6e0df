/**
 * A notice's publication in the operators' desk (docs/API.md, "Operators: content"): the operator writes
 * it in zh and, when wanted, en (HTML), previews it as members will see it (the member app's sanitiser rule,
 * api-schema/richText.ts), saves it (a new notice is a draft; a published one shows its new texts at once), then
 * publishes, pins or unpins, or unpublishes it. The server's answer is the truth: after a save the desk shows the
 * bodies as the server sanitised them, and says when sanitising changed what was written. A refusal (4004 no such
 * notice, 1006 no content role, ...) or a dropped call stays on the screen with a retry of the same request.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Answer } from '../shared/answer';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';

export type NoticeLang = 'zh' | 'en';
export type NoticeField = 'title' | 'summary' | 'body';

export interface NoticeText {
  title: string;
  summary: string;
  body: string;
}

/** A notice as the desk reads it (opsNotices): bodies already sanitised by the server. */
export interface EditableNotice {
  id: string;
  published: boolean;
  pinned: boolean;
  publishedAt: string | null;
  zh: NoticeText;
  en: NoticeText | null;
}

/** The sanitised bodies as members will receive them, and whether sanitising changed what was sent. */
export interface NoticePreview {
  zh: string;
  en: string | null;
  changedBySanitiser: boolean;
}

/** What opsNoticePut answers. */
export interface SavedNotice extends EditableNotice {
  preview: NoticePreview;
}

/** The texts being written: the English kept aside while switched off. */
export interface NoticeDraft {
  id: string;
  zh: NoticeText;
  en: NoticeText;
  withEn: boolean;
}

export interface NoticePublicationInput {
  /** The notice to edit; null writes a new one. */
  notice: EditableNotice | null;
  /** The ids notices have already: a new notice may not take one (a put would replace its texts). */
  takenIds: readonly string[];
}

export interface SaveInput {
  id: string;
  zh: { title: string; summary?: string; body: string };
  en?: { title: string; summary?: string; body: string };
}

export interface PublishInput {
  id: string;
  published: boolean;
  pinned: boolean;
}

export interface NoticePublicationContext extends NoticePublicationInput {
  draft: NoticeDraft;
  /** The last save's preview (the server's sanitised bodies). */
  preview: NoticePreview | null;
  /** The publication and pin asked for. */
  change: { published: boolean; pinned: boolean } | null;
  /** What the last call tried, for its retry. */
  attempt: 'save' | 'change' | null;
  error: ErrorInfo | null;
}

export type NoticePublicationEvent =
  | { type: 'draft.change'; lang: NoticeLang; field: NoticeField; value: string }
  | { type: 'id.change'; id: string }
  | { type: 'en.toggle'; withEn: boolean }
  | { type: 'user.preview' }
  | { type: 'user.edit' }
  | { type: 'user.save' }
  | { type: 'user.publish' }
  | { type: 'user.pin' }
  | { type: 'user.unpin' }
  | { type: 'user.unpublish' }
  | { type: 'user.retry' }
  | { type: 'user.cancel' };

/** The server's limits (api-schema/opsContent.ts). */
export const noticeLimits = { title: 200, summary: 500, body: 200_000 } as const;
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

export type NoticeProblem = 'id' | 'idTaken' | `${NoticeLang}.${NoticeField}`;

const emptyText = (): NoticeText => ({ title: '', summary: '', body: '' });

/** The form's texts for a notice (or a new, empty one). */
export function draftOf(notice: EditableNotice | null): NoticeDraft {
  if (!notice) return { id: '', zh: emptyText(), en: emptyText(), withEn: true };
  return { id: notice.id, zh: { ...notice.zh }, en: notice.en ? { ...notice.en } : emptyText(), withEn: notice.en !== null };
}

function textProblems(lang: NoticeLang, text: NoticeText): NoticeProblem[] {
  const problems: NoticeProblem[] = [];
  if (text.title.trim() === '' || text.title.length > noticeLimits.title) problems.push(`${lang}.title`);
  if (text.summary.length > noticeLimits.summary) problems.push(`${lang}.summary`);
  if (text.body.trim() === '' || text.body.length > noticeLimits.body) problems.push(`${lang}.body`);
  return problems;
}

/**
 * What keeps a draft from being saved: a new notice's id (its pattern, or one taken), each language's title and body
 * (the English only when it is on).
 *
 * @example noticeDraftProblems(draftOf(null), [], true); // ['id', 'zh.title', 'zh.body', 'en.title', 'en.body']
 */
export function noticeDraftProblems(draft: NoticeDraft, takenIds: readonly string[], isNew: boolean): NoticeProblem[] {
  const problems: NoticeProblem[] = [];
  if (isNew && !idPattern.test(draft.id)) problems.push('id');
  else if (isNew && takenIds.includes(draft.id)) problems.push('idTaken');
  problems.push(...textProblems('zh', draft.zh));
  if (draft.withEn) problems.push(...textProblems('en', draft.en));
  return problems;
}

/** A translation as opsNoticePut takes it: an empty summary is left out (the server makes one from the body). */
function textInput(text: NoticeText): { title: string; summary?: string; body: string } {
  return { title: text.title.trim(), ...(text.summary.trim() ? { summary: text.summary.trim() } : {}), body: text.body };
}

export function saveInputOf(draft: NoticeDraft): SaveInput {
  return { id: draft.id, zh: textInput(draft.zh), ...(draft.withEn ? { en: textInput(draft.en) } : {}) };
}

export const noticePublicationSetup = setup({
  types: {
    context: {} as NoticePublicationContext,
    events: {} as NoticePublicationEvent,
    input: {} as NoticePublicationInput,
    tags: {} as 'busy',
  },
  actors: {
    save: fromPromise<Answer<SavedNotice>, SaveInput>(async () => notProvided('noticePublication', 'save')),
    publish: fromPromise<Answer<EditableNotice>, PublishInput>(async () => notProvided('noticePublication', 'publish')),
  },
  actions: {
    assignText: assign(({ context }, params: { lang: NoticeLang; field: NoticeField; value: string }) => ({
      draft: { ...context.draft, [params.lang]: { ...context.draft[params.lang], [params.field]: params.value } },
    })),
    assignId: assign(({ context }, params: { id: string }) => ({ draft: { ...context.draft, id: params.id.trim() } })),
    assignWithEn: assign(({ context }, params: { withEn: boolean }) => ({ draft: { ...context.draft, withEn: params.withEn } })),
    resetDraft: assign(({ context }) => ({ draft: draftOf(context.notice), error: null })),
    assignChange: assign((_, params: { published: boolean; pinned: boolean }) => ({ change: params })),
    assignAttempt: assign((_, params: { attempt: 'save' | 'change' }) => ({ attempt: params.attempt, error: null })),
    assignSaved: assign((_, params: { saved: SavedNotice | null }) => {
      if (!params.saved) return { attempt: null, error: null };
      const { preview, ...notice } = params.saved;
      return { notice, preview, draft: draftOf(notice), attempt: null, error: null };
    }),
    assignNotice: assign(({ context }, params: { notice: EditableNotice | null }) => ({ notice: params.notice ?? context.notice, change: null, attempt: null, error: null })),
    assignError: assign((_, params: { error: ErrorInfo }) => ({ error: params.error })),
    assignThrownError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    clearError: assign({ error: null }),
  },
  guards: {
    isNew: ({ context }) => context.notice === null,
    hasNotice: ({ context }) => context.notice !== null,
    isPublished: ({ context }) => context.notice?.published === true,
    isPinned: ({ context }) => context.notice?.pinned === true,
    isUnpinned: ({ context }) => context.notice?.pinned === false,
    isDraftValid: ({ context }) => noticeDraftProblems(context.draft, context.takenIds, context.notice === null).length === 0,
    isApiOk: (_, params: { code: number }) => params.code === 0,
    isAttemptSave: ({ context }) => context.attempt === 'save',
  },
});

const refusedBy = <TResult>() => ({
  target: 'refused' as const,
  actions: { type: 'assignError' as const, params: ({ event }: { event: { output: Answer<TResult> } }) => ({ error: { name: 'ApiError', code: event.output.code } }) },
});
const dropped = { target: 'refused' as const, actions: { type: 'assignThrownError' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } };

// @__NO_SIDE_EFFECTS__
export function createNoticePublicationMachine() {
  return noticePublicationSetup.createMachine({
    id: 'noticePublication',
    context: ({ input }) => ({ notice: input.notice, takenIds: input.takenIds, draft: draftOf(input.notice), preview: null, change: null, attempt: null, error: null }),
    initial: 'sorting',
    states: {
      /** A new notice is written first; a saved one is a draft or published. */
      sorting: {
        description: 'noticePublication.sorting',
        always: [{ guard: 'isNew', target: 'editing' }, { guard: 'isPublished', target: 'published' }, { target: 'draft' }],
      },
      editing: {
        description: 'noticePublication.editing',
        on: {
          'draft.change': { actions: { type: 'assignText', params: ({ event }) => ({ lang: event.lang, field: event.field, value: event.value }) } },
          'id.change': { guard: 'isNew', actions: { type: 'assignId', params: ({ event }) => ({ id: event.id }) } },
          'en.toggle': { actions: { type: 'assignWithEn', params: ({ event }) => ({ withEn: event.withEn }) } },
          'user.preview': { guard: 'isDraftValid', target: 'previewing' },
          'user.cancel': { guard: 'hasNotice', target: 'sorting', actions: 'resetDraft' },
        },
      },
      /** The texts as members will see them (the member app's sanitiser): save them, or write on. */
      previewing: {
        description: 'noticePublication.previewing',
        on: {
          'user.edit': 'editing',
          'user.save': 'saving',
        },
      },
      saving: {
        description: 'noticePublication.saving',
        tags: 'busy',
        entry: { type: 'assignAttempt', params: { attempt: 'save' } },
        invoke: {
          src: 'save',
          id: 'save',
          input: ({ context }) => saveInputOf(context.draft),
          onDone: [
            {
              guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
              target: 'sorting',
              actions: { type: 'assignSaved', params: ({ event }) => ({ saved: event.output.result }) },
            },
            refusedBy<SavedNotice>(),
          ],
          onError: dropped,
        },
      },
      /** Saved, members do not see it: publish it (dated now), or edit it. */
      draft: {
        description: 'noticePublication.draft',
        on: {
          'user.edit': { target: 'editing', actions: 'resetDraft' },
          'user.publish': {
            target: 'changing',
            actions: { type: 'assignChange', params: ({ context }) => ({ published: true, pinned: context.notice?.pinned ?? false }) },
          },
        },
      },
      /** Members see it: pin it on top or unpin it, unpublish it, or edit it (the new texts show at once). */
      published: {
        description: 'noticePublication.published',
        on: {
          'user.edit': { target: 'editing', actions: 'resetDraft' },
          'user.pin': { guard: 'isUnpinned', target: 'changing', actions: { type: 'assignChange', params: { published: true, pinned: true } } },
          'user.unpin': { guard: 'isPinned', target: 'changing', actions: { type: 'assignChange', params: { published: true, pinned: false } } },
          'user.unpublish': { target: 'changing', actions: { type: 'assignChange', params: { published: false, pinned: false } } },
        },
      },
      changing: {
        description: 'noticePublication.changing',
        tags: 'busy',
        entry: { type: 'assignAttempt', params: { attempt: 'change' } },
        invoke: {
          src: 'publish',
          id: 'publish',
          input: ({ context }) => ({ id: context.notice?.id ?? '', published: context.change?.published ?? false, pinned: context.change?.pinned ?? false }),
          onDone: [
            {
              guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
              target: 'sorting',
              actions: { type: 'assignNotice', params: ({ event }) => ({ notice: event.output.result }) },
            },
            refusedBy<EditableNotice>(),
          ],
          onError: dropped,
        },
      },
      /** Refused or dropped: the same request again, or back (to the texts after a save). */
      refused: {
        description: 'noticePublication.refused',
        on: {
          'user.retry': [{ guard: 'isAttemptSave', target: 'saving' }, { target: 'changing' }],
          'user.cancel': [{ guard: 'isAttemptSave', target: 'editing', actions: 'clearError' }, { target: 'sorting', actions: 'clearError' }],
        },
      },
    },
  });
}

export const noticePublicationMachine = createNoticePublicationMachine();
export type NoticePublicationMachine = typeof noticePublicationMachine;
