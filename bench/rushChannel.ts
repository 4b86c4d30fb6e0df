/**
 * Where the rush's load worker (bench/rushClient.ts) says which timed phase runs, for the probe (bench/rushProbe.ts):
 * `{ phase: label }`, `{ phase: null }`; the main thread (bench/rush.ts) says `{ end: true }`. A module of its own:
 * each worker module answers its parent as soon as it is imported.
 */
export const RUSH_CHANNEL = 'bench-rush-phases';
