import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';

/** The `onNavigate` that presentational links take: client-side navigation to an href. */
export function useAppNavigate(): (href: string) => void {
  const navigate = useNavigate();
  return useCallback((href: string) => void navigate(href), [navigate]);
}
