import type { ReactNode } from 'react';

/** A short note in the brand's soft colour, with a leading icon (an invite being used, a hint). */
export function Notice({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <p className="notice">
      <span className="notice-icon" aria-hidden="true">
        {icon}
      </span>
      <span>{children}</span>
    </p>
  );
}
