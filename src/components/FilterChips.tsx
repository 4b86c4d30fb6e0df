export interface FilterOption<TValue extends string> {
  value: TValue;
  label: string;
}

interface FilterChipsProps<TValue extends string> {
  /** What the group filters, read by screen readers. */
  label: string;
  options: readonly FilterOption<TValue>[];
  value: TValue;
  onChange: (value: TValue) => void;
}

/**
 * One choice among a few filters, as a row of toggle buttons (aria-pressed) that scrolls sideways when it does not
 * fit; each at least 44 px tall.
 */
export function FilterChips<TValue extends string>({ label, options, value, onChange }: FilterChipsProps<TValue>) {
  return (
    <div role="group" aria-label={label} className="filter-chips">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className="filter-chip"
          aria-pressed={option.value === value}
          onClick={() => {
            if (option.value !== value) onChange(option.value);
          }}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
