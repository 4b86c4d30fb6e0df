import { useState } from 'react';

/**
 * State that belongs to a key the address holds: kept while the key stays, and set to `initial` again when it changes
 * (Back, Forward, another filter), so what a screen holds never belongs to another list than the one it shows.
 *
 * @example const [checked, setChecked] = useStateFor(`${status} ${member}`, [] as readonly string[]);
 */
export function useStateFor<T>(key: string, initial: T) {
  const [value, setValue] = useState(initial);
  const [heldFor, setHeldFor] = useState(key);
  // React's "adjusting state when a prop changes": set during render, before the stale value is painted.
  if (key !== heldFor) {
    setHeldFor(key);
    setValue(initial);
  }
  return [value, setValue] as const;
}

/**
 * A filter field's draft of a value the address holds: typed freely, and shown anew when the address changes
 * (Back, Forward, a cleared filter), so the field never says one filter while the list shows another.
 *
 * @example const [memberText, setMemberText] = useDraft(params.get('address') ?? '');
 */
export function useDraft(source: string) {
  return useStateFor(source, source);
}

/**
 * The item an address opens, as the list last showed it: kept while the address names it, so a decided item that
 * left its tab when the list was read again stays open with what was decided.
 *
 * @example const selected = useKeptItem(selectedId ?? '', list?.find((item) => item.id === selectedId) ?? null);
 */
export function useKeptItem<T>(key: string, listed: T | null): T | null {
  const [kept, setKept] = useStateFor<T | null>(key, null);
  if (listed && listed !== kept) setKept(listed);
  return listed ?? kept;
}
