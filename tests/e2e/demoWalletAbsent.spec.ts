/**
 * The demo wallet (src/dev/demoWallet.ts) is for development only: the production build that `npm start` serves
 * must not contain it. globalSetup has built dist/spa from the current sources.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_WALLET_KEY, DEMO_WALLET_RDNS } from '../../src/dev/demoWallet';
import { spaDir } from './support/build';

describe('production build', () => {
  it('behavior: contains no trace of the demo wallet', async () => {
    const assets = path.join(spaDir, 'assets');
    const files = (await readdir(assets)).filter((file) => file.endsWith('.js'));
    expect(files.length).toBeGreaterThan(3);
    const traces: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(assets, file), 'utf8');
      for (const marker of [DEMO_WALLET_RDNS, DEMO_WALLET_KEY, 'demoWallet']) if (text.includes(marker)) traces.push(`${file}: ${marker}`);
    }
    expect(traces).toEqual([]);
  });
});
