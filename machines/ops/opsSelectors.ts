/**
 * What the desk's screens show, read from its machines' snapshots: components keep no copy of flow state.
 */
import type { SnapshotFrom } from 'xstate';
import type { OperatorRole } from '../../api-schema/endpoint';
import type { ErrorInfo } from '../shared/errorInfo';
import type { createHeldTopUpMachine } from './heldTopUpMachine';
import { noticeDraftProblems } from './noticePublicationMachine';
import type { EditableNotice, NoticeDraft, NoticePreview, NoticeProblem, NoticePublicationMachine } from './noticePublicationMachine';
import type { createOpsActionMachine } from './opsActionMachine';
import type { OpsSessionMachine, Operator } from './opsSessionMachine';
import type { OrderShippingMachine, ShippableOrder } from './orderShippingMachine';
import type { WithdrawalDecisionMachine } from './withdrawalDecisionMachine';

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

export type WithdrawalDecisionView = 'ready' | 'awaitingSecond' | 'approved' | 'failForm' | 'approving' | 'failing' | 'refused' | 'closed';

export function selectDecisionView(snapshot: DecisionSnapshot): WithdrawalDecisionView {
  if (snapshot.matches({ pending: 'awaitingSecond' })) return 'awaitingSecond';
  if (snapshot.matches('pending')) return 'ready';
  if (snapshot.matches('approved')) return 'approved';
  if (snapshot.matches('failForm')) return 'failForm';
  if (snapshot.matches('approving')) return 'approving';
  if (snapshot.matches('failing')) return 'failing';
  if (snapshot.matches('refused')) return 'refused';
  return 'closed';
}

export const selectDecisionReason = (snapshot: DecisionSnapshot): string => snapshot.context.reason;
export const selectDecisionError = (snapshot: DecisionSnapshot): ErrorInfo | null => snapshot.context.error;
export const selectDecidedStatus = (snapshot: DecisionSnapshot): string => snapshot.context.withdrawal.status;
/** The approvals so far and how many the withdrawal needs ("1 of 2"). */
export const selectApprovalCount = (snapshot: DecisionSnapshot): { have: number; need: number } => ({
  have: snapshot.context.withdrawal.approvals.length,
  need: snapshot.context.withdrawal.approvalsNeeded,
});

type HeldTopUpSnapshot = SnapshotFrom<ReturnType<typeof createHeldTopUpMachine>>;

export type HeldTopUpView = 'ready' | 'releaseForm' | 'confirmingReturn' | 'releasing' | 'returning' | 'refused' | 'closed';

export function selectHeldTopUpView(snapshot: HeldTopUpSnapshot): HeldTopUpView {
  for (const view of ['ready', 'releaseForm', 'confirmingReturn', 'releasing', 'returning', 'refused'] as const) {
    if (snapshot.matches(view)) return view;
  }
  return 'closed';
}

export const selectReleaseAddress = (snapshot: HeldTopUpSnapshot): string => snapshot.context.address;
export const selectHeldTopUpError = (snapshot: HeldTopUpSnapshot): ErrorInfo | null => snapshot.context.error;
export const selectHeldTopUpState = (snapshot: HeldTopUpSnapshot): string => snapshot.context.topUp.state;

type OrderShippingSnapshot = SnapshotFrom<OrderShippingMachine>;

export type OrderShippingView = 'ready' | 'shipForm' | 'refundForm' | 'shipping' | 'refunding' | 'refused' | 'shipped' | 'closed';

export function selectOrderView(snapshot: OrderShippingSnapshot): OrderShippingView {
  for (const view of ['ready', 'shipForm', 'refundForm', 'shipping', 'refunding', 'refused', 'shipped'] as const) {
    if (snapshot.matches(view)) return view;
  }
  return 'closed';
}

/** What the operator typed: the shipment's carrier and tracking number, or the cancellation's reason. */
export const selectOrderForm = (snapshot: OrderShippingSnapshot): { carrier: string; trackingNumber: string; reason: string } => ({
  carrier: snapshot.context.carrier,
  trackingNumber: snapshot.context.trackingNumber,
  reason: snapshot.context.reason,
});
export const selectOrderError = (snapshot: OrderShippingSnapshot): ErrorInfo | null => snapshot.context.error;
/** The order as the last answer has it (shipped with its carrier, or cancelled with its reason). */
export const selectShippingOrder = (snapshot: OrderShippingSnapshot): ShippableOrder => snapshot.context.order;

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

export function selectActionView<TRequest, TResult>(snapshot: ActionSnapshot<TRequest, TResult>): OpsActionView {
  if (snapshot.matches('running')) return 'running';
  if (snapshot.matches('done')) return 'done';
  if (snapshot.matches('refused')) return 'refused';
  return 'idle';
}

export const selectActionResult = <TRequest, TResult>(snapshot: ActionSnapshot<TRequest, TResult>): TResult | null => snapshot.context.result;
export const selectActionError = <TRequest, TResult>(snapshot: ActionSnapshot<TRequest, TResult>): ErrorInfo | null => snapshot.context.error;
