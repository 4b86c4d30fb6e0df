import { ExclamationCircleOutline } from 'antd-mobile-icons';

/** A translated error, announced to assistive technology. */
export function ErrorText({ text, id }: { text: string; id?: string }) {
  return (
    <p role="alert" className="error-text" id={id}>
      <ExclamationCircleOutline aria-hidden="true" className="error-text-icon" />
      <span>{text}</span>
    </p>
  );
}
