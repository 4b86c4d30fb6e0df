import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';

// Here, not in a helper: with `isolate: false` a helper's afterEach is registered in the first file that loads it only,
// and a global it stubbed (the desk's wide window's matchMedia) would leak into the files after it.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
