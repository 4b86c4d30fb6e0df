/**
 * What a machine's API actor resolves with: the envelope's code, and its result when the code is 0 (null
 * otherwise). src/api/answer.ts's toAnswer is the one place an API client result becomes one.
 */
export interface Answer<T> {
  code: number;
  result: T | null;
}
