/**
 * A desk list as a table from 900 px up (src/ops/useWide.ts): sortable columns (TanStack Table's sorted row model,
 * within the page the server sent: the server pages newest first), amounts right-aligned in tabular figures, the
 * open row marked, ticks where the screen's acts take several rows, and the keyboard: ↓/j and ↑/k move between rows,
 * Enter opens one, x ticks it, Shift+X ticks all or none; the screen adds its acts (`onShortcut`, e.g. `a` approves).
 * Focus always rests on a real control (each row's first cell opens it, or the row's own button where rows open
 * nothing), so a screen reader says what Enter does.
 */
import { flexRender, getCoreRowModel, getSortedRowModel, useReactTable } from '@tanstack/react-table';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toMinor } from '../../../api-schema/amount';

export interface DeskColumn<TRow> {
  id: string;
  header: string;
  cell: (row: TRow) => ReactNode;
  /** How two rows order by this column; none: the column does not sort. */
  compare?: (a: TRow, b: TRow) => number;
  /** Amounts and counts: right-aligned, tabular figures. */
  numeric?: boolean;
}

export interface DeskTableSelection<TRow> {
  ids: readonly string[];
  onChange: (ids: readonly string[]) => void;
  /** The tick's label for screen readers, e.g. "Select withdrawal #41". */
  label: (row: TRow) => string;
}

interface DeskTableProps<TRow> {
  label: string;
  rows: readonly TRow[];
  columns: readonly DeskColumn<TRow>[];
  rowId: (row: TRow) => string;
  /**
   * The open button's name, when its cell alone says too little: it must begin with what the cell shows (axe's
   * label-content-name-mismatch). None: the cell's own text (a short address's full one) names it.
   */
  rowName?: ((row: TRow) => string) | undefined;
  /** The opened row (its detail beside the table); none for a table whose rows open nothing. */
  openId?: string | null | undefined;
  /** Opens a row: its first cell becomes the button that does. Without it, a row's own buttons take the focus. */
  onOpen?: ((row: TRow) => void) | undefined;
  selection?: DeskTableSelection<TRow> | undefined;
  /** The screen's own keys on the focused row; true when it took the key. */
  onShortcut?: ((key: string, row: TRow) => boolean) | undefined;
}

const sortSymbol = { asc: '▲', desc: '▼' } as const;

/** Whether a key press is for a field (typing in the filters), not for the table. */
const isTyping = (event: KeyboardEvent) => event.target instanceof HTMLInputElement && event.target.type !== 'checkbox';

/** The element of a row the keyboard rests on: its open button, else its first control. */
const focusTarget = (row: Element | undefined) => row?.querySelector<HTMLElement>('button[data-open]') ?? row?.querySelector<HTMLElement>('button, a[href], input') ?? null;

export function DeskTable<TRow>({ label, rows, columns, rowId, rowName, openId = null, onOpen, selection, onShortcut }: DeskTableProps<TRow>) {
  const { t } = useTranslation('ops');
  const [sorting, setSorting] = useState<SortingState>([]);
  const body = useRef<HTMLTableSectionElement>(null);
  const definitions = useMemo<ColumnDef<TRow>[]>(
    () =>
      columns.map((column) => ({
        id: column.id,
        header: column.header,
        accessorFn: (row: TRow) => row,
        cell: (context) => column.cell(context.row.original),
        enableSorting: column.compare !== undefined,
        sortDescFirst: false,
        sortingFn: (a, b) => (column.compare ? column.compare(a.original, b.original) : 0),
        meta: { numeric: column.numeric === true },
      })),
    [columns],
  );
  // TanStack Table's instance is read afresh every render and nothing here memoises what it returns, which is what
  // the React Compiler's warning is about.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows as TRow[],
    columns: definitions,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (row) => rowId(row),
  });
  const shown = table.getRowModel().rows;
  const ticked = new Set(selection?.ids ?? []);
  const allTicked = shown.length > 0 && shown.every((row) => ticked.has(row.id));

  const toggle = (id: string) => selection?.onChange(ticked.has(id) ? [...ticked].filter((other) => other !== id) : [...ticked, id]);
  const toggleAll = () => selection?.onChange(allTicked ? [] : shown.map((row) => row.id));
  const focusRow = (index: number) => focusTarget(body.current?.querySelectorAll('tr')[index])?.focus();

  // With nothing focused (an act's panel closed under the focus), ↓ or j enters the table at its first row.
  useEffect(() => {
    const enter = (event: globalThis.KeyboardEvent) => {
      if (document.activeElement !== document.body || !(event.key === 'j' || event.key === 'ArrowDown')) return;
      const first = focusTarget(body.current?.querySelector('tr') ?? undefined);
      if (!first) return;
      event.preventDefault();
      first.focus();
    };
    window.addEventListener('keydown', enter);
    return () => window.removeEventListener('keydown', enter);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    if (isTyping(event) || event.altKey || event.ctrlKey || event.metaKey) return;
    const index = Number((event.target as HTMLElement).closest('tr')?.dataset.index ?? -1);
    const row = shown[index];
    if (!row) return;
    const key = event.key;
    let handled = true;
    if (key === 'ArrowDown' || key === 'j') focusRow(Math.min(index + 1, shown.length - 1));
    else if (key === 'ArrowUp' || key === 'k') focusRow(Math.max(index - 1, 0));
    else if (key === 'Home') focusRow(0);
    else if (key === 'End') focusRow(shown.length - 1);
    else if (key === 'x' && selection) toggle(row.id);
    else if (key === 'X' && selection) toggleAll();
    else handled = onShortcut?.(key, row.original) ?? false;
    if (handled) event.preventDefault();
  };

  return (
    <div className="desk-table-wrap">
      <table className="desk-table" aria-label={label}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {selection ? (
                <th scope="col" className="desk-table-check">
                  <label className="desk-check">
                    <input type="checkbox" checked={allTicked} onChange={toggleAll} />
                    <span className="visually-hidden">{t('table.selectAll')}</span>
                  </label>
                </th>
              ) : null}
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const numeric = (header.column.columnDef.meta as { numeric: boolean } | undefined)?.numeric === true;
                const title = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    scope="col"
                    data-numeric={numeric || undefined}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    {header.column.getCanSort() ? (
                      <button type="button" className="desk-table-sort" onClick={header.column.getToggleSortingHandler()}>
                        {title}
                        <span aria-hidden="true">{sorted ? sortSymbol[sorted] : ''}</span>
                      </button>
                    ) : (
                      title
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody ref={body} onKeyDown={onKeyDown}>
          {shown.map((row, index) => (
            <tr key={row.id} data-index={index} aria-current={row.id === openId || undefined} data-ticked={ticked.has(row.id) || undefined}>
              {selection ? (
                <td className="desk-table-check">
                  <label className="desk-check">
                    <input type="checkbox" checked={ticked.has(row.id)} onChange={() => toggle(row.id)} />
                    <span className="visually-hidden">{selection.label(row.original)}</span>
                  </label>
                </td>
              ) : null}
              {row.getVisibleCells().map((cell, column) => {
                const numeric = (cell.column.columnDef.meta as { numeric: boolean } | undefined)?.numeric === true;
                const content = flexRender(cell.column.columnDef.cell, cell.getContext());
                return (
                  <td key={cell.id} data-numeric={numeric || undefined}>
                    {column === 0 && onOpen ? (
                      <button type="button" data-open className="desk-table-open" aria-label={rowName?.(row.original)} onClick={() => onOpen(row.original)}>
                        {content}
                      </button>
                    ) : (
                      content
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="desk-muted desk-table-keys">{t(selection ? 'table.keysWithTicks' : 'table.keys')}</p>
    </div>
  );
}

/** A decimal string (amounts, rates, ids), signed or not, as bigint minor units: never a float. */
const signedMinor = (text: string): bigint => (text.startsWith('-') ? -toMinor(text.slice(1)) : toMinor(text));

/** Orders decimal strings exactly, a minus sign included (amounts, a bot's signed rate, ids, block numbers). */
export const byDecimal =
  <TRow,>(decimal: (row: TRow) => string) =>
  (a: TRow, b: TRow): number => {
    const difference = signedMinor(decimal(a)) - signedMinor(decimal(b));
    return difference === 0n ? 0 : difference > 0n ? 1 : -1;
  };

/** Orders ISO times (oldest first). */
export const byTime =
  <TRow,>(time: (row: TRow) => string) =>
  (a: TRow, b: TRow): number =>
    time(a).localeCompare(time(b));

/** Orders texts in the reader's language. */
export const byText =
  <TRow,>(text: (row: TRow) => string) =>
  (a: TRow, b: TRow): number =>
    text(a).localeCompare(text(b));
