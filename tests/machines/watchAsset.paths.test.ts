/**
 * The watchAsset machine's generated paths (every transition walked) and its promises at every step: busy exactly
 * while the wallet is asked, the button offered again only where the wallet may still list the token, an error kept
 * exactly where the wallet did not list it.
 */
import { describe, expect } from 'vitest';
import { watchAssetModel } from '../../scripts/machineGraph/watchAsset.model';
import { describeModelPaths } from './support/describeModelPaths';
import { checkAlongPaths } from './support/checkAlongPaths';

await describeModelPaths('watchAsset', [watchAssetModel]);

describe('watchAsset machine: along every generated path', () => {
  checkAlongPaths([watchAssetModel], ({ snapshot, path }) => {
    const value = String(snapshot.value);
    expect(snapshot.hasTag('busy'), path).toBe(value === 'adding');
    expect(snapshot.can({ type: 'user.add' }), path).toBe(['idle', 'declined', 'failed'].includes(value));
    expect(snapshot.context.error !== null, path).toBe(['declined', 'unsupported', 'failed'].includes(value));
    if (value === 'unsupported') expect(snapshot.context.error?.name, path).toBe('UnsupportedMethodError');
  });
});
