import { create } from 'qrcode';
import { describe, expect, it } from 'vitest';
import { QR_QUIET_ZONE, qrPath } from './qrPath';

/** Reads the drawn path back into the set of dark modules (row, column), without the quiet zone. */
function darkModules(d: string): Set<string> {
  const dark = new Set<string>();
  for (const [, x, y, run] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let i = 0; i < Number(run); i++) dark.add(`${Number(y) - QR_QUIET_ZONE},${Number(x) - QR_QUIET_ZONE + i}`);
  }
  return dark;
}

describe('qrPath', () => {
  const link = 'https://member.example/login/K7Q2ZP0A';

  it('behavior: draws exactly the dark modules of the encoded symbol, inside a 4-module quiet zone', () => {
    const { modules } = create(link, { errorCorrectionLevel: 'M' });
    const expected = new Set<string>();
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) if (modules.get(row, col)) expected.add(`${row},${col}`);
    }
    const { size, d } = qrPath(link);
    expect(size).toBe(modules.size + 2 * QR_QUIET_ZONE);
    expect(darkModules(d)).toEqual(expected);
    expect(d).toMatch(/^(M\d+ \d+h\d+v1h-\d+z)+$/);
  });

  it('behavior: different links draw different codes', () => {
    expect(qrPath(link).d).not.toBe(qrPath('https://member.example/login/DEMO2026').d);
  });
});
