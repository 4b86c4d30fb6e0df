import Cascader from 'antd-mobile/es/components/cascader';
import { useEffect, useState } from 'react';
import { loadRegionOptions, regionText, type RegionOption } from './regionOptions';

export interface RegionPickerProps {
  visible: boolean;
  /** Cascader's texts: title, confirm, cancel, and "choose" for a level not chosen yet. */
  texts: { title: string; confirm: string; cancel: string; choose: string };
  onChange: (region: string) => void;
  onClose: () => void;
}

/**
 * Province → city → district in antd-mobile's Cascader over china-area-data. Its own chunk with the Cascader and its
 * animation library (about 24 KiB gzip), loaded the first time a member opens the picker (RegionField), so the
 * address form renders without it; the divisions load with it.
 */
export default function RegionPicker({ visible, texts, onChange, onClose }: RegionPickerProps) {
  const [options, setOptions] = useState<RegionOption[] | null>(null);
  useEffect(() => {
    let live = true;
    void loadRegionOptions().then((loaded) => {
      if (live) setOptions(loaded);
    });
    return () => {
      live = false;
    };
  }, []);
  return (
    <Cascader
      title={texts.title}
      confirmText={texts.confirm}
      cancelText={texts.cancel}
      placeholder={texts.choose}
      options={options ?? []}
      loading={options === null}
      visible={visible}
      onClose={onClose}
      onConfirm={(_values, extend) => {
        const labels = extend.items.flatMap((item) => (item ? [item.label] : []));
        if (labels.length > 0) onChange(regionText(labels.map(String)));
      }}
    />
  );
}
