/**
 * What the app's API client checks at run time: every endpoint's schemas, the envelope, and the app config. The
 * client loads this module (after configContract.ts, and zod with it) on its first call other than the app
 * config's, so /login renders and reads its config without it (src/api/contractLoader.ts); the server imports
 * api-schema directly.
 */
// The member app's calls only: an operator call's schemas are the desk's bundle's (memberEndpoints.ts).
export { memberEndpoints as endpoints } from './memberEndpoints';
export { dappParamSchema, envelopeSchema } from './configContract';
