import { useState } from 'react';

/**
 * A filter field's draft of a value the address holds: typed freely, and shown anew when the address changes
 * (Back, Forward, a cleared filter), so the field never says one filter while the list shows another.
 *
 * @example const [memberText, setMemberText] = useDraft(params.get('address') ?? '');
 */
export function useDraft(source: string) {
  const [draft, setDraft] = useState(source);
  const [shown, setShown] = useState(source);
  // React's "adjusting state when a prop changes": set during render, before the stale draft is painted.
  if (source !== shown) {
    setShown(source);
    setDraft(source);
  }
  return [draft, setDraft] as const;
}
