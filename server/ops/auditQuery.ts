/**
 * Reading the audit log (opsAudit, and GET /api/admin/audit.csv): newest first by id, filtered by actor, action,
 * target and time, a page at a time from a cursor (the last id seen). The CSV quotes every cell as RFC 4180 says and
 * puts a quote before a cell that starts with = + - @ (or a tab or carriage return), so a spreadsheet never runs
 * it as a formula (OWASP, "CSV injection").
 */
import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';

export interface AuditFilters {
  actor?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

export interface AuditRow {
  id: string;
  at: string;
  actorAddress: string | null;
  actorRoles: string[];
  via: string;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  requestId: string | null;
  clientAddress: string | null;
}

/** The filters without the cursor: what `total` counts. */
function filtersOf(filters: AuditFilters): (SQL | undefined)[] {
  return [
    filters.actor === undefined ? undefined : eq(auditLog.actorAddress, filters.actor),
    filters.action === undefined ? undefined : eq(auditLog.action, filters.action),
    filters.target === undefined ? undefined : eq(auditLog.target, filters.target),
    filters.from === undefined ? undefined : gte(auditLog.at, new Date(filters.from)),
    filters.to === undefined ? undefined : lt(auditLog.at, new Date(filters.to)),
  ];
}

/** A page without its total, as the CSV reads it. */
async function auditPage(db: Db, filters: AuditFilters): Promise<{ list: AuditRow[]; nextCursor: string | null }> {
  const cursor = filters.cursor === undefined ? undefined : lt(auditLog.id, BigInt(filters.cursor));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...filtersOf(filters), cursor))
    .orderBy(desc(auditLog.id))
    .limit(filters.limit + 1);
  const page = rows.slice(0, filters.limit).map((row) => ({ ...row, id: row.id.toString(), at: row.at.toISOString() }));
  const last = page[page.length - 1];
  return { list: page, nextCursor: rows.length > filters.limit && last ? last.id : null };
}

/**
 * A page of the audit log, newest first.
 *
 * @param db - database handle
 * @param filters - actor (EIP-55), action, target, from (inclusive), to (exclusive), cursor, limit
 * @returns the rows, the cursor of the next page (null on the last) and how many match the filters on all pages
 * @example
 * const { list, nextCursor, total } = await readAudit(db, { action: 'opsOperatorPut', limit: 50 });
 */
export async function readAudit(db: Db, filters: AuditFilters): Promise<{ list: AuditRow[]; nextCursor: string | null; total: number }> {
  const page = await auditPage(db, filters);
  const [counted] = await db
    .select({ total: count() })
    .from(auditLog)
    .where(and(...filtersOf(filters)));
  return { ...page, total: counted?.total ?? 0 };
}

const CSV_COLUMNS = ['id', 'at', 'actorAddress', 'actorRoles', 'via', 'action', 'target', 'before', 'after', 'requestId', 'clientAddress'] as const;

/**
 * One CSV cell: a formula-looking value gets a leading quote, then the cell is quoted with its quotes doubled.
 *
 * @example
 * csvCell('=HYPERLINK("x")'); // "\"'=HYPERLINK(\"\"x\"\")\""
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(' ');
  return JSON.stringify(value);
}

/**
 * The audit log as CSV (header line, then rows newest first), page by page so a long log is not held at once.
 *
 * @param db - database handle
 * @param filters - as readAudit; `limit` is the page size read at a time
 * @returns the CSV lines, each ending in CRLF
 * @example
 * for await (const line of auditCsv(db, { limit: 500 })) reply.raw.write(line);
 */
export async function* auditCsv(db: Db, filters: AuditFilters): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  let cursor = filters.cursor;
  for (;;) {
    const page = await auditPage(db, { ...filters, cursor });
    for (const row of page.list) yield `${CSV_COLUMNS.map((column) => csvCell(cellText(row[column]))).join(',')}\r\n`;
    if (page.nextCursor === null) return;
    cursor = page.nextCursor;
  }
}
