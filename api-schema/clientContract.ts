import * as z from 'zod/mini';

/**
 * What the app's API client checks at run time: every endpoint's schemas, the envelope, and the app config. The
 * client loads this module (and zod with it) on its first call, so /login renders before it arrives
 * (src/api/contractLoader.ts); the server imports api-schema directly.
 */
// The member app's calls only: an operator call's schemas are the desk's bundle's (memberEndpoints.ts).
export { memberEndpoints as endpoints } from './memberEndpoints';
export { dappParamSchema } from './dapp';

/** docs/API.md "Envelope": `{ code, message?, result? }`; `result` is checked against the endpoint afterwards. */
export const envelopeSchema = z.object({ code: z.number().check(z.int()), message: z.optional(z.string()), result: z.optional(z.unknown()) });
