import List from 'antd-mobile/es/components/list';
import { lazy, Suspense, useState } from 'react';
import { ErrorText } from './ErrorText';

// The picker (Cascader, its animations and China's divisions) loads the first time the member opens it.
const RegionPicker = lazy(() => import('./RegionPicker'));

interface RegionFieldProps {
  id: string;
  label: string;
  /** The chosen region's text, '' when none. */
  value: string;
  placeholder: string;
  /** Cascader's texts: title, confirm, cancel, and "choose" for a level not chosen yet. */
  texts: { title: string; confirm: string; cancel: string; choose: string };
  error: string | null;
  /** The region cannot be changed now (the form is being saved, or failed to save). */
  disabled?: boolean;
  onChange: (region: string) => void;
  onClose?: () => void;
}

/**
 * The address's region as members pick it on phones: a button that opens province → city → district (RegionPicker:
 * antd-mobile's Cascader over china-area-data), the chosen text shown in the field, its error tied to the button.
 */
export function RegionField({ id, label, value, placeholder, texts, error, disabled = false, onChange, onClose }: RegionFieldProps) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing keeps Cascader's own closing animation.
  const [opened, setOpened] = useState(false);
  const errorId = `${id}-error`;
  return (
    <List mode="card" className="form-list">
      <List.Item>
        <span id={`${id}-label`} className="field-label">
          {label}
        </span>
        <button
          id={id}
          type="button"
          className="field-input region-button"
          aria-labelledby={`${id}-label ${id}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          disabled={disabled}
          onClick={() => {
            setOpen(true);
            setOpened(true);
          }}
        >
          {value || <span className="placeholder">{placeholder}</span>}
        </button>
        {error ? <ErrorText id={errorId} text={error} /> : null}
      </List.Item>
      {opened ? (
        <Suspense fallback={null}>
          <RegionPicker
            visible={open}
            texts={texts}
            onChange={onChange}
            onClose={() => {
              setOpen(false);
              onClose?.();
            }}
          />
        </Suspense>
      ) : null}
    </List>
  );
}
