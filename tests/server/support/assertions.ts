import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { httpStatusOf, type ApiCodeValue } from '../../../api-schema/codes';
import type { Db } from '../../../server/db/client';
import { snapshotDb } from './snapshot';
import { envelope } from './memberSignIn';

/** Asserts a refusal: the envelope code, the HTTP status docs/API.md pairs with it, and (optionally) the message. */
export function expectRefused(response: Pick<LightMyRequestResponse, 'json' | 'statusCode'>, code: ApiCodeValue, message?: string, status = httpStatusOf[code]): void {
  const body = envelope(response);
  expect({ status: response.statusCode, code: body.code }).toEqual({ status, code });
  expect(body.result).toBeUndefined();
  if (message !== undefined) expect(body.message).toBe(message);
}

/** Runs `act` and asserts that no table changed. */
export async function expectNoDbChange<T>(db: Db, act: () => Promise<T>): Promise<T> {
  const before = await snapshotDb(db);
  const result = await act();
  expect(await snapshotDb(db)).toBe(before);
  return result;
}
