import { useEffect } from 'react';
import { useRootActors } from '../../app/RootActorsContext';

/**
 * Tells the auth machine that a page showing the member record (balances, team) opened, and again whenever the wallet
 * browser shows the app again: an operator's refund or grant, or a top-up credited while the member was elsewhere,
 * then shows without a reload. The machine decides whether to read it again (`app.profileShown`: only a record read
 * more than `profileFreshFor` ago), so pages opened one after another, or while the first read runs, add no read.
 *
 * @example
 * useFreshProfile(); // in /home, /me and /me/wpos
 */
export function useFreshProfile(): void {
  const { auth } = useRootActors();
  useEffect(() => {
    const shown = () => auth.send({ type: 'app.profileShown' });
    shown();
    const onVisible = () => {
      // After the timers a frozen page owes: the record's 15 s may have run out while the phone slept, and that
      // timer fires before a new one of 0 ms, so the machine reads it as stale.
      if (document.visibilityState === 'visible') setTimeout(shown, 0);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [auth]);
}
