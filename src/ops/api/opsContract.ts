/**
 * The calls the desk makes, by name, with their schemas: api-schema's operator calls (api-schema/operatorEndpoints.ts,
 * every path under /api/admin) and dappParam. Only the desk's bundle imports this: the member app never loads an
 * operator schema.
 */
import type * as z from 'zod/mini';
import { dappParam } from '../../../api-schema/dapp';
import { operatorEndpoints } from '../../../api-schema/operatorEndpoints';

export const opsEndpoints = { dappParam, ...operatorEndpoints };

export type OpsEndpoints = typeof opsEndpoints;
export type OpsEndpointName = keyof OpsEndpoints;

/** docs/API.md "Envelope": the member client's own schema, one definition for both apps. */
export { envelopeSchema } from '../../../api-schema/configContract';

type InputOf<T> = T extends z.ZodMiniType ? z.input<T> : undefined;
export type OpsResult<TName extends OpsEndpointName> = z.output<OpsEndpoints[TName]['result']>;
export type OpsQuery<TName extends OpsEndpointName> = InputOf<OpsEndpoints[TName]['query']>;
export type OpsBody<TName extends OpsEndpointName> = InputOf<OpsEndpoints[TName]['body']>;
/** A list endpoint's item. */
export type OpsItem<TName extends OpsEndpointName, TField extends string = 'list'> = OpsResult<TName> extends { [K in TField]: readonly (infer TItem)[] } ? TItem : never;
