import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import type { ReactNode } from 'react';

interface StatusPanelProps {
  /** What the member must do or wait for, e.g. "Confirm in your wallet". */
  message: string;
  /** A smaller line under it: why, or what happens next. */
  detail?: ReactNode;
  cancelLabel?: string;
  onCancel?: () => void;
  /** False when the member must act (e.g. switch the network in the wallet): no spinner, just what to do. */
  waiting?: boolean;
}

/**
 * Every wait on the wallet or the server: what to do now, a spinner, and a way out when the wait can be left.
 * The message is a live status line, so screen readers announce each new step.
 */
export function StatusPanel({ message, detail, cancelLabel, onCancel, waiting = true }: StatusPanelProps) {
  return (
    <div className="status-panel">
      {/* DotLoading, not SpinLoading: the spinner brings @react-spring (24 KiB gzip) into every page that waits. */}
      {waiting ? (
        <span className="status-spinner" aria-hidden="true">
          <DotLoading color="primary" />
        </span>
      ) : null}
      <p role="status" className="status-message">
        {message}
      </p>
      {detail ? <div className="status-detail">{detail}</div> : null}
      {onCancel && cancelLabel ? (
        <Button block fill="outline" shape="rounded" onClick={onCancel}>
          {cancelLabel}
        </Button>
      ) : null}
    </div>
  );
}
