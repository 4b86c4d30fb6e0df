import { useSyncExternalStore } from 'react';

/** From this width up the desk's lists are tables (ops.css's same breakpoint lays the detail beside them). */
export const wideQuery = '(min-width: 900px)';

const media = (): MediaQueryList | null => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(wideQuery) : null);

const subscribe = (onChange: () => void) => {
  const list = media();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
};

/**
 * Whether the desk is as wide as a desktop (a window resized or a tablet turned changes it). Where the browser cannot
 * say (no matchMedia), it is a phone's: the lists stay lists.
 *
 * @example const wide = useWide(); return wide ? <DeskTable … /> : <ul className="desk-list">…</ul>;
 */
export function useWide(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => media()?.matches ?? false,
    () => false,
  );
}
