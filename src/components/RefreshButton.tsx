import { RedoOutline } from 'antd-mobile-icons';

/** The list's refresh control; while a refresh runs it says so and cannot be pressed twice. */
export function RefreshButton({ label, busyLabel, busy, onRefresh }: { label: string; busyLabel: string; busy: boolean; onRefresh: () => void }) {
  return (
    <button type="button" className="refresh-button" onClick={onRefresh} disabled={busy} aria-busy={busy}>
      <RedoOutline aria-hidden="true" className={busy ? 'refresh-icon refresh-icon-busy' : 'refresh-icon'} />
      <span>{busy ? busyLabel : label}</span>
    </button>
  );
}
