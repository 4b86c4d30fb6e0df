// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserStorage } from './browserStorage';
import { STORAGE_KEYS } from './keys';

afterEach(() => localStorage.clear());

describe('createBrowserStorage in a browser', () => {
  it('behavior: uses window.localStorage by default', () => {
    const store = createBrowserStorage();
    store.writeJson(STORAGE_KEYS.tempToken, 'temp');
    expect(localStorage.getItem('TEMP_TOKEN_STORE')).toBe('"temp"');
    expect(store.readAuthorization()).toBe('"temp"');
  });
});
