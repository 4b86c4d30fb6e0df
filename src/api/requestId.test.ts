import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestIdSchema } from '../../api-schema/primitives';
import { newRequestId } from './requestId';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newRequestId', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is crypto.randomUUID where the context has it', () => {
    const id = newRequestId();
    expect(id).toMatch(uuidV4);
    expect(requestIdSchema.safeParse(id).success).toBe(true);
  });

  it('builds a version 4 UUID from getRandomValues where randomUUID is missing (plain HTTP on a LAN address)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (array: Uint8Array<ArrayBuffer>) => real.getRandomValues(array) });
    const ids = Array.from({ length: 200 }, () => newRequestId());
    for (const id of ids) {
      expect(id).toMatch(uuidV4);
      expect(requestIdSchema.safeParse(id).success).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
