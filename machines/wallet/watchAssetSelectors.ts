/**
 * What the "add to wallet" part shows, read from the watchAsset machine's snapshot: which step, and whether the
 * member may tap the button (again).
 */
import type { SnapshotFrom } from 'xstate';
import type { ErrorInfo } from '../shared/errorInfo';
import type { watchAssetMachine } from './watchAssetMachine';

type WatchAssetSnapshot = SnapshotFrom<typeof watchAssetMachine>;

export type WatchAssetStep = 'offer' | 'adding' | 'added' | 'declined' | 'unsupported' | 'failed';

export function selectWatchAssetStep(snapshot: WatchAssetSnapshot): WatchAssetStep {
  return snapshot.matches('idle') ? 'offer' : (snapshot.value as Exclude<WatchAssetStep, 'offer'>);
}

export const selectCanAddAsset = (snapshot: WatchAssetSnapshot): boolean => snapshot.can({ type: 'user.add' });
export const selectWatchAssetError = (snapshot: WatchAssetSnapshot): ErrorInfo | null => snapshot.context.error;
