import List from 'antd-mobile/es/components/list';
import type { InputHTMLAttributes } from 'react';
import { ErrorText } from './ErrorText';

type FormFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'aria-invalid' | 'aria-describedby'> & {
  id: string;
  label: string;
  /** The field's error, from the flow's machine; announced and tied to the input. */
  error: string | null;
  /** A standing hint under the field (limits), also tied to the input. */
  hint?: string;
};

/**
 * One form field in antd-mobile's card-list look: a native input with its label, its error and hint tied to it
 * by aria-invalid and aria-describedby (antd-mobile's Input cannot carry those, ADR 0006).
 */
export function FormField({ id, label, error, hint, ...inputProps }: FormFieldProps) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <List mode="card" className="form-list">
      <List.Item>
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        <input id={id} className="field-input" autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...inputProps} />
        {error ? <ErrorText id={errorId} text={error} /> : null}
        {hint ? (
          <p id={hintId} className="hint">
            {hint}
          </p>
        ) : null}
      </List.Item>
    </List>
  );
}
