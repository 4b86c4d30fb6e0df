import type { ReactNode } from 'react';
import type { FilterOption } from '../../components/FilterChips';
import { PageSize } from './PageSize';
import type { PageSizeValue } from './PageSize';

interface QueueFiltersProps<TStatus extends string> {
  status: { label: string; options: readonly FilterOption<TStatus>[]; value: TStatus; onChange: (value: TStatus) => void };
  /** A member's address, typed: the screen applies it once it is one (or cleared) and says why it is not. */
  member?: { label: string; text: string; error: string | null; onChange: (text: string) => void } | undefined;
  limit: number;
  onLimit: (size: PageSizeValue) => void;
  /** More filters of the screen's own (a checkbox), before the page size. */
  children?: ReactNode;
}

/**
 * A desk table's filters in one row (from 900 px): the status, the member, the screen's own, the page size; each
 * applies as it changes, so there is no Filter button to press.
 */
export function QueueFilters<TStatus extends string>({ status, member, limit, onLimit, children }: QueueFiltersProps<TStatus>) {
  return (
    <div className="desk-filters" role="search">
      <label className="desk-filter">
        <span className="field-label">{status.label}</span>
        <select value={status.value} onChange={(event) => status.onChange(event.target.value as TStatus)}>
          {status.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      {member ? (
        <label className="desk-filter desk-filter-wide">
          <span className="field-label">{member.label}</span>
          <input value={member.text} placeholder="0x…" aria-invalid={member.error ? true : undefined} onChange={(event) => member.onChange(event.target.value)} />
        </label>
      ) : null}
      {children}
      <PageSize value={limit} onChange={onLimit} />
      {member?.error ? <p className="desk-filter-error">{member.error}</p> : null}
    </div>
  );
}
