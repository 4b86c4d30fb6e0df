import { useLocation } from 'react-router-dom';

/** Where a member sent to /login came from (set by the member-area guard); /home otherwise. */
export function useReturnPath(): string {
  const location = useLocation();
  const from: unknown = (location.state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('/login') ? from : '/home';
}
