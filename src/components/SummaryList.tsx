import type { ReactNode } from 'react';

export interface SummaryRow {
  label: string;
  value: ReactNode;
  /** Emphasised row (the total, what arrives). */
  strong?: boolean;
}

/** Label and value pairs, one a line, values right-aligned: a summary before a confirmation, a receipt after it. */
export function SummaryList({ rows, label }: { rows: readonly SummaryRow[]; label?: string }) {
  return (
    <dl className="summary-list" aria-label={label}>
      {rows.map((row) => (
        <div key={row.label} className={row.strong ? 'summary-row summary-row-strong' : 'summary-row'}>
          <dt>{row.label}</dt>
          <dd>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
