import * as z from 'zod/mini';
import { dappParam } from './dapp';

/**
 * What the app's API client checks before any other call: the envelope and the app config (its endpoint and its
 * schema). A first visit's /login asks for nothing else, so it loads only this (and zod); the other endpoints'
 * schemas, clientContract.ts, come with the first other call (src/api/contractLoader.ts).
 */
export { dappParamSchema } from './dapp';

/** The endpoints this module can check: the app config's. */
export const endpoints = { dappParam };

/** docs/API.md "Envelope": `{ code, message?, result? }`; `result` is checked against the endpoint afterwards. */
export const envelopeSchema = z.object({ code: z.number().check(z.int()), message: z.optional(z.string()), result: z.optional(z.unknown()) });
