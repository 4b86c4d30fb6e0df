import { CloseOutline } from 'antd-mobile-icons';
import { useEffectEvent, useLayoutEffect, useRef } from 'react';
import type { MouseEvent, PointerEvent, ReactNode } from 'react';

interface BottomSheetProps {
  /** The id the title gets; the dialog is named by it (aria-labelledby). */
  titleId: string;
  title: string;
  /** The close button's accessible name. */
  closeLabel: string;
  /**
   * The member asked to close: the close button, Escape, a tap on the backdrop, or the browser closing the dialog
   * (Android's back gesture when the page has no user activation). The parent stops rendering the sheet.
   */
  onClose: () => void;
  children: ReactNode;
}

/**
 * A bottom sheet on the native modal `<dialog>` (no animation library): rendered only while open, it opens with
 * showModal() when mounted, so the browser puts it in the top layer, makes the page behind it inert, moves focus into
 * it and gives focus back when it closes. Escape (the dialog's cancel event) and a tap on the backdrop report onClose
 * instead of closing it: whoever renders the sheet owns the open state. Looks: `.sheet` in src/app/app.css.
 */
export function BottomSheet({ titleId, title, closeLabel, onClose, children }: BottomSheetProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const pressedOnBackdrop = useRef(false);
  const requestClose = useEffectEvent(() => onClose());

  // A layout effect: its cleanup closes the dialog while it is still in the document, so focus goes back.
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const cancel = (event: Event) => {
      // Not cancelable (a back gesture without user activation): the dialog closes and its close event reports it.
      if (!event.cancelable) return;
      event.preventDefault();
      requestClose();
    };
    // Closed by the browser; not a close event left over from a cleanup's close() when it has opened again since.
    const closed = () => {
      if (!dialog.open) requestClose();
    };
    dialog.addEventListener('cancel', cancel);
    dialog.addEventListener('close', closed);
    // jsdom (the UI tests) has no showModal: there the dialog is only open, without top layer, focus move or Escape.
    const modal = typeof dialog.showModal === 'function';
    if (modal) dialog.showModal();
    else dialog.setAttribute('open', '');
    return () => {
      dialog.removeEventListener('cancel', cancel);
      dialog.removeEventListener('close', closed);
      if (modal) dialog.close();
      else dialog.removeAttribute('open');
    };
  }, []);

  // The backdrop is the dialog's own box outside its content: a click there targets the dialog itself. The press
  // must start there too, so selecting text inside and letting go outside does not close the sheet.
  const pointerDown = (event: PointerEvent<HTMLDialogElement>) => {
    pressedOnBackdrop.current = event.target === event.currentTarget;
  };
  const click = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget && pressedOnBackdrop.current) onClose();
    pressedOnBackdrop.current = false;
  };

  return (
    <dialog ref={dialogRef} className="sheet" aria-labelledby={titleId} onPointerDown={pointerDown} onClick={click}>
      {/* tabIndex -1: the content is the dialog's first focusable element, so showModal() focuses the start of the
          sheet rather than the close button. */}
      <div className="sheet-content" tabIndex={-1}>
        <header className="sheet-head">
          <h2 id={titleId} className="sheet-title">
            {title}
          </h2>
          <button type="button" className="icon-button sheet-close" aria-label={closeLabel} onClick={onClose}>
            <CloseOutline aria-hidden="true" />
          </button>
        </header>
        {children}
      </div>
    </dialog>
  );
}
