/**
 * The development chain's anvil is a devDependency (docs/operations.md, "Production"): without it, the development
 * chain says what to install or what to set instead, rather than a module resolution error.
 */
import { describe, expect, it } from 'vitest';
import { anvilBinary } from './anvil';

describe('anvilBinary', () => {
  it('names the binary of the installed platform package', () => {
    expect(anvilBinary()).toMatch(/@foundry-rs\/anvil-[a-z0-9-]+\/bin\/anvil(\.exe)?$/);
  });

  it('says how to get anvil, or to configure a chain, when the package is not installed', () => {
    const missing = () => {
      throw Object.assign(new Error("Cannot find module '@foundry-rs/anvil-linux-amd64/package.json'"), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => anvilBinary(missing)).toThrow(/needs anvil .*not installed: run `npm ci` with the devDependencies .*or set CHAIN_RPC_URL, TOKEN_ADDRESS and TREASURY_ADDRESS/);
  });
});
