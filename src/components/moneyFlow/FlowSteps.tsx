/**
 * The steps every money flow's sheet shows after its form (machines/shared/moneyFlow.ts): the summary to confirm,
 * the wait with a way to stop waiting, the retry on the same request id, and the receipt. Presentational: texts,
 * rows and callbacks come in; the route binds them to the flow's machine (src/routes/shared/MoneyFlowSteps.tsx).
 */
import Button from 'antd-mobile/es/components/button';
import { CheckCircleOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { ErrorText } from '../ErrorText';
import { StatusPanel } from '../StatusPanel';

/** The summary the member confirms; confirming creates the request id every retry reuses. */
export function FlowSummary(props: { lead: string; children: ReactNode; confirmLabel: string; editLabel: string; onConfirm: () => void; onEdit: () => void }) {
  return (
    <div className="form">
      <p className="sheet-lead">{props.lead}</p>
      {props.children}
      <div className="form-actions">
        <Button block color="primary" size="large" shape="rounded" onClick={props.onConfirm}>
          {props.confirmLabel}
        </Button>
        <Button block fill="outline" shape="rounded" onClick={props.onEdit}>
          {props.editLabel}
        </Button>
      </div>
    </div>
  );
}

/** The wait for the server, with a way to stop waiting while the machine allows it. */
export function FlowWaiting(props: { message: string; cancelLabel: string; onCancel: (() => void) | undefined }) {
  return (
    <div className="card">
      <StatusPanel message={props.message} cancelLabel={props.cancelLabel} onCancel={props.onCancel} />
    </div>
  );
}

/** A failure (the error) or a member who stopped waiting (a status), and a retry with the same request id. */
export function FlowRetry(props: {
  /** The member stopped waiting: a status line instead of an error. */
  interrupted: boolean;
  message: string;
  detail: string;
  retryLabel: string;
  closeLabel: string;
  canRetry: boolean;
  onRetry: () => void;
  onClose: () => void;
}) {
  return (
    <div className="form">
      {props.interrupted ? (
        <p role="status" className="sheet-lead">
          {props.message}
        </p>
      ) : (
        <ErrorText text={props.message} />
      )}
      <p className="hint">{props.detail}</p>
      <div className="form-actions">
        <Button block color="primary" size="large" shape="rounded" disabled={!props.canRetry} onClick={props.onRetry}>
          {props.retryLabel}
        </Button>
        <Button block fill="outline" shape="rounded" onClick={props.onClose}>
          {props.closeLabel}
        </Button>
      </div>
    </div>
  );
}

/** The receipt: done, what moved, what happens next, and where to go. */
export function FlowDone(props: {
  title: string;
  /** What moved (a SummaryList), when the answer has it. */
  children: ReactNode;
  detail: string;
  closeLabel: string;
  onClose: () => void;
  secondary?: { label: string; onClick: () => void } | undefined;
}) {
  return (
    <div className="form">
      <p role="status" className="sheet-done">
        <CheckCircleOutline aria-hidden="true" className="sheet-done-icon" />
        <span>{props.title}</span>
      </p>
      {props.children}
      <p className="hint">{props.detail}</p>
      <div className="form-actions">
        <Button block color="primary" size="large" shape="rounded" onClick={props.onClose}>
          {props.closeLabel}
        </Button>
        {props.secondary ? (
          <Button block fill="outline" shape="rounded" onClick={props.secondary.onClick}>
            {props.secondary.label}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
