import Button from 'antd-mobile/es/components/button';
import { BottomSheet } from './BottomSheet';

interface ConfirmSheetProps {
  titleId: string;
  title: string;
  text: string;
  /** Keeps things as they are; also what closing the sheet means. */
  keepLabel: string;
  /** The step that loses something (delete, discard), in the danger colour. */
  confirmLabel: string;
  closeLabel: string;
  onKeep: () => void;
  onConfirm: () => void;
}

/** A question before something is lost (delete an address, discard changes): keep it, or go on. */
export function ConfirmSheet({ titleId, title, text, keepLabel, confirmLabel, closeLabel, onKeep, onConfirm }: ConfirmSheetProps) {
  return (
    <BottomSheet titleId={titleId} title={title} closeLabel={closeLabel} onClose={onKeep}>
      <p>{text}</p>
      <div className="sheet-actions">
        <Button block onClick={onKeep}>
          {keepLabel}
        </Button>
        <Button block color="danger" onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </BottomSheet>
  );
}
