/**
 * The committed icons are what scripts/icons.ts draws (run `npm run icons` after changing the drawing), and they
 * stay small: the browser fetches them after the page, but a wallet's prompt and a chat's preview wait for them.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { iconsDir, PNG_SIZES, staleIcons } from '../../scripts/icons';

describe('the app icons', () => {
  it('behavior: the committed files are the drawing’s, pixel for pixel', () => {
    expect(staleIcons()).toEqual([]);
  });

  it('behavior: the SVG is under 1 KiB and each PNG under 10 KiB', () => {
    expect(statSync(path.join(iconsDir, 'icon.svg')).size).toBeLessThan(1024);
    for (const name of Object.keys(PNG_SIZES)) expect(statSync(path.join(iconsDir, name)).size, name).toBeLessThan(10 * 1024);
  });
});
