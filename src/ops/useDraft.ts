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
