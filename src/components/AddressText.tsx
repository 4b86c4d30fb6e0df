import { CheckOutline, FileOutline } from 'antd-mobile-icons';
import { ShortAddress } from './ShortAddress';

interface AddressTextProps {
  address: string;
  /** Copy the whole address. */
  onCopy: () => void;
  copyLabel: string;
  /** Feedback after a copy ("Copied" or the copy-failed text), from the copy machine. */
  feedback: { kind: 'copied' | 'failed'; text: string } | null;
}

/** A shortened address with a copy button, its feedback announced (status when copied, alert when refused). */
export function AddressText({ address, onCopy, copyLabel, feedback }: AddressTextProps) {
  return (
    <span className="address-text">
      <ShortAddress address={address} />
      <button type="button" className="icon-button" onClick={onCopy} aria-label={copyLabel}>
        {feedback?.kind === 'copied' ? <CheckOutline aria-hidden="true" /> : <FileOutline aria-hidden="true" />}
      </button>
      {feedback ? (
        <span role={feedback.kind === 'copied' ? 'status' : 'alert'} className={`copy-feedback copy-feedback-${feedback.kind}`}>
          {feedback.text}
        </span>
      ) : null}
    </span>
  );
}
