/**
 * What a machine keeps of an error: a plain, JSON-serialisable { name, code } (docs/architecture.md, "Errors"). The UI turns
 * it into text with `wallet.errors.{name}` or `Common.{code}`; machines never hold display strings.
 */
export interface ErrorInfo {
  name: string;
  code?: number;
}

/**
 * Reads name and code from anything an actor threw, without importing the error classes (machines stay pure).
 *
 * @example toErrorInfo(new UserRejectedError()) // { name: 'UserRejectedError', code: 4001 }
 */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (typeof error === 'object' && error !== null) {
    const { name, code } = error as { name?: unknown; code?: unknown };
    const info: ErrorInfo = { name: typeof name === 'string' && name !== 'Error' ? name : 'UnknownError' };
    if (typeof code === 'number') info.code = code;
    return info;
  }
  return { name: 'UnknownError' };
}

/** True when `error` carries the given error name. */
export function hasErrorName(error: unknown, name: string): boolean {
  return toErrorInfo(error).name === name;
}

/**
 * The body of an actor that the app has to supply with `machine.provide()`: it fails loudly when nobody did.
 */
export function notProvided(machineId: string, actorName: string): never {
  throw new Error(`${machineId}: actor "${actorName}" was not provided`);
}
