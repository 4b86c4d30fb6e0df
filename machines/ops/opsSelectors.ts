/**
 * What the desk's screens show, read from its machines' snapshots: components keep no copy of flow state.
 */
import type { SnapshotFrom } from 'xstate';
import type { OperatorRole } from '../../api-schema/endpoint';
import type { ErrorInfo } from '../shared/errorInfo';
import { noticeDraftProblems } from './noticePublicationMachine';
import type { EditableNotice, NoticeDraft, NoticePreview, NoticeProblem, NoticePublicationMachine } from './noticePublicationMachine';
import type { createOpsActionMachine } from './opsActionMachine';
import type { OpsSessionMachine, Operator } from './opsSessionMachine';
import { isApprovedBy } from './withdrawalDecisionMachine';
import type { WithdrawalDecisionMachine } from './withdrawalDecisionMachine';
import { selectDecisionStage } from '../shared/deskDecisionSelectors';
import type { DecisionSnapshot as SkeletonSnapshot } from '../shared/deskDecisionSelectors';

type SessionSnapshot = SnapshotFrom<OpsSessionMachine>;

export type OpsSessionView = 'checking' | 'checkFailed' | 'signedOut' | 'fetchingNonce' | 'signingMessage' | 'verifying' | 'signedIn' | 'signingOut';

export function selectOpsSessionView(snapshot: SessionSnapshot): OpsSessionView {
  if (snapshot.matches('signedIn')) return 'signedIn';
  if (snapshot.matches('signedOut')) return 'signedOut';
  if (snapshot.matches('checkFailed')) return 'checkFailed';
  if (snapshot.matches('signingOut')) return 'signingOut';
  if (snapshot.matches({ signingIn: 'fetchingNonce' })) return 'fetchingNonce';
  if (snapshot.matches({ signingIn: 'signingMessage' })) return 'signingMessage';
  if (snapshot.matches({ signingIn: 'verifying' })) return 'verifying';
  return 'checking';
}

export const selectOperator = (snapshot: SessionSnapshot): Operator | null => (snapshot.matches('signedIn') ? snapshot.context.operator : null);
export const selectOpsSessionError = (snapshot: SessionSnapshot): ErrorInfo | null => snapshot.context.error;

/**
 * Whether the signed-in operator holds a role (admin holds every role). It only hides screens: the server decides
 * every call (1006).
 */
export function holdsRole(operator: Operator | null, role: OperatorRole): boolean {
  return operator !== null && (operator.roles.includes('admin') || operator.roles.includes(role));
}

type DecisionSnapshot = SnapshotFrom<WithdrawalDecisionMachine>;

/** Where a withdrawal stands for this operator: open to decide, approved by them and waiting, or approved. */
export type WithdrawalStanding = 'open' | 'awaitingSecond' | 'approved' | 'closed';

export function selectWithdrawalStanding(snapshot: DecisionSnapshot): WithdrawalStanding {
  const { subject, operator } = snapshot.context;
  if (subject.status === 'approved') return 'approved';
  if (subject.status !== 'pending') return 'closed';
  return isApprovedBy(subject, operator) ? 'awaitingSecond' : 'open';
}

/** The approvals so far and how many the withdrawal needs ("1 of 2"). */
export const selectApprovalCount = (snapshot: DecisionSnapshot): { have: number; need: number } => ({
  have: snapshot.context.subject.approvals.length,
  need: snapshot.context.subject.approvalsNeeded,
});

type NoticeSnapshot = SnapshotFrom<NoticePublicationMachine>;

export type NoticePublicationView = 'editing' | 'previewing' | 'saving' | 'draft' | 'published' | 'changing' | 'refused';

export function selectNoticeView(snapshot: NoticeSnapshot): NoticePublicationView {
  for (const view of ['editing', 'previewing', 'saving', 'draft', 'published', 'changing'] as const) {
    if (snapshot.matches(view)) return view;
  }
  return 'refused';
}

/** The texts being written (the English kept while switched off). */
export const selectNoticeDraft = (snapshot: NoticeSnapshot): NoticeDraft => snapshot.context.draft;
/** What keeps the draft from its preview (ids, titles, bodies). */
export const selectNoticeProblems = (snapshot: NoticeSnapshot): NoticeProblem[] =>
  noticeDraftProblems(snapshot.context.draft, snapshot.context.takenIds, snapshot.context.notice === null);
/** The notice as the server last answered it (null until a new one is saved). */
export const selectEditedNotice = (snapshot: NoticeSnapshot): EditableNotice | null => snapshot.context.notice;
export const selectNoticePreview = (snapshot: NoticeSnapshot): NoticePreview | null => snapshot.context.preview;
/** The publication and pin being asked for. */
export const selectNoticeChange = (snapshot: NoticeSnapshot): { published: boolean; pinned: boolean } | null => snapshot.context.change;
export const selectNoticeError = (snapshot: NoticeSnapshot): ErrorInfo | null => snapshot.context.error;

type ActionSnapshot<TRequest, TResult> = SnapshotFrom<ReturnType<typeof createOpsActionMachine<TRequest, TResult>>>;

export type OpsActionView = 'idle' | 'running' | 'done' | 'refused';

/** The act's stage as its screen shows it: the form or button (idle), the wait, the refusal, the answer kept. */
export function selectActionView<TRequest, TResult>(snapshot: ActionSnapshot<TRequest, TResult>): OpsActionView {
  if (snapshot.hasTag('busy')) return 'running';
  // The skeleton's states, read as its selectors read them (an instance's own state names type-check as none here).
  const stage = selectDecisionStage(snapshot as SkeletonSnapshot<unknown, string>);
  if (stage === 'refused') return 'refused';
  return stage === 'ready' && snapshot.context.subject.answered ? 'done' : 'idle';
}

export const selectActionResult = <TRequest, TResult>(snapshot: ActionSnapshot<TRequest, TResult>): TResult | null => snapshot.context.subject.result;
export const selectActionError = <TRequest, TResult>(snapshot: ActionSnapshot<TRequest, TResult>): ErrorInfo | null => snapshot.context.error;
