/** A translated error, announced to assistive technology. */
export function ErrorText({ text, id }: { text: string; id?: string }) {
  return (
    <p role="alert" className="error-text" id={id}>
      {text}
    </p>
  );
}
