interface CopyFeedbackProps {
  /** From the copy machine (useCopy's feedback): "copied" or the copy-failed text; null shows nothing. */
  feedback: { kind: 'copied' | 'failed'; text: string } | null;
}

/** The line under a copy button: announced politely when copied, as an alert when the browser refused. */
export function CopyFeedback({ feedback }: CopyFeedbackProps) {
  if (!feedback) return null;
  return (
    <p role={feedback.kind === 'copied' ? 'status' : 'alert'} className={`copy-feedback copy-feedback-${feedback.kind}`}>
      {feedback.text}
    </p>
  );
}
