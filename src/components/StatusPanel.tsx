import type { ReactNode } from 'react';
import { Button } from './Button';

interface StatusPanelProps {
  /** What the member must do or wait for, e.g. "Confirm in your wallet". */
  message: string;
  detail?: ReactNode;
  cancelLabel?: string;
  onCancel?: () => void;
}

/** A wait the member can see and leave: a live status line and, when the wait can be left, a cancel button. */
export function StatusPanel({ message, detail, cancelLabel, onCancel }: StatusPanelProps) {
  return (
    <div className="status-panel">
      <span className="spinner" aria-hidden="true" />
      <p role="status" className="status-message">
        {message}
      </p>
      {detail ? <div className="status-detail">{detail}</div> : null}
      {onCancel && cancelLabel ? (
        <Button variant="secondary" onClick={onCancel}>
          {cancelLabel}
        </Button>
      ) : null}
    </div>
  );
}
