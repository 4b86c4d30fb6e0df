/**
 * A log line in pino's shape for what is written before (or without) the app's pino logger: a refused or failed
 * start, a database lost before the app was built. Every line the server writes is then one JSON object
 * (docs/operations.md, "Production": logs), `level` as pino numbers it (50 error, 60 fatal), a failed start's stack
 * inside `err`, never spread over lines. Hand-written because pino's logger is the app's, made only once the settings
 * are read.
 */
import { hostname } from 'node:os';

/**
 * One JSON line.
 *
 * @param level - pino's number: 30 info, 40 warn, 50 error, 60 fatal
 * @param msg - what a person reads
 * @param fields - more fields, as pino's first argument
 * @returns the line, without its newline
 * @example
 * console.error(logLine(60, 'the database worker died', { err }));
 */
export function logLine(level: number, msg: string, fields: Record<string, unknown> = {}): string {
  const { err, ...rest } = fields;
  return JSON.stringify({ level, time: Date.now(), pid: process.pid, hostname: hostname(), ...rest, ...(err === undefined ? {} : { err: errorFields(err) }), msg });
}

/**
 * The line of a start that failed: fatal, the error's message as `msg`.
 *
 * @param error - what the start threw
 * @returns the line
 * @example
 * main(process.env).catch((error) => { console.error(failedStartLine(error)); process.exit(1); });
 */
export function failedStartLine(error: unknown): string {
  return logLine(60, error instanceof Error ? error.message : String(error), { err: error });
}

function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  return { type: error.name, message: error.message, stack: error.stack };
}
