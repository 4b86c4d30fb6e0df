import Cascader from 'antd-mobile/es/components/cascader';
import List from 'antd-mobile/es/components/list';
import { useEffect, useState } from 'react';
import { ErrorText } from './ErrorText';
import { loadRegionOptions, regionText, type RegionOption } from './regionOptions';

interface RegionFieldProps {
  id: string;
  label: string;
  /** The chosen region's text, '' when none. */
  value: string;
  placeholder: string;
  /** Cascader's texts: title, confirm, cancel, and "choose" for a level not chosen yet. */
  texts: { title: string; confirm: string; cancel: string; choose: string };
  error: string | null;
  onChange: (region: string) => void;
  onClose?: () => void;
}

/**
 * The address's region as members pick it on phones: a button that opens province → city → district (antd-mobile's
 * Cascader over china-area-data), the chosen text shown in the field, its error tied to the button.
 */
export function RegionField({ id, label, value, placeholder, texts, error, onChange, onClose }: RegionFieldProps) {
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<RegionOption[] | null>(null);
  useEffect(() => {
    if (!open || options) return;
    let live = true;
    void loadRegionOptions().then((loaded) => {
      if (live) setOptions(loaded);
    });
    return () => {
      live = false;
    };
  }, [open, options]);
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
          onClick={() => setOpen(true)}
        >
          {value || <span className="placeholder">{placeholder}</span>}
        </button>
        {error ? <ErrorText id={errorId} text={error} /> : null}
      </List.Item>
      <Cascader
        title={texts.title}
        confirmText={texts.confirm}
        cancelText={texts.cancel}
        placeholder={texts.choose}
        options={options ?? []}
        loading={options === null}
        visible={open}
        onClose={() => {
          setOpen(false);
          onClose?.();
        }}
        onConfirm={(_values, extend) => {
          const labels = extend.items.flatMap((item) => (item ? [item.label] : []));
          if (labels.length > 0) onChange(regionText(labels.map(String)));
        }}
      />
    </List>
  );
}
