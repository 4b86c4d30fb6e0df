/**
 * npm run openapi: writes docs/api/openapi.json from the api-schema catalogue (zod 4's z.toJSONSchema, OpenAPI
 * 3.1 / JSON Schema 2020-12). With --check it writes nothing and exits 1 when the committed file differs, so CI
 * catches a contract change whose document was not regenerated.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { allApiCodes, ApiCode, httpStatusOf } from '../api-schema/codes';
import { operatorRolesOf, type Endpoint } from '../api-schema/endpoint';
import { endpoints } from '../api-schema/endpoints';
import { envelopeOf } from '../api-schema/primitives';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const openApiPath = path.join(repoRoot, 'docs', 'api', 'openapi.json');

type JsonSchema = Record<string, unknown>;

/** JSON Schema of a zod schema, as the request side (input) or response side (output) sees it. */
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function queryParameters(query: z.ZodMiniType): JsonSchema[] {
  const schema = jsonSchema(query, 'input');
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', required: required.has(name), schema: property }));
}

const MEMBER_ACCESS_TEXT: Record<'public' | 'token' | 'member', string> = {
  public: 'No token needed.',
  token: 'Needs a token; a temporary token (recommender not bound) is enough.',
  member: 'Needs a bound member’s token; a temporary token gets 1003.',
};

function accessText(access: Endpoint['access']): string {
  const operator = operatorRolesOf(access);
  if (!operator) return MEMBER_ACCESS_TEXT[access as keyof typeof MEMBER_ACCESS_TEXT];
  const roles = operator.roles?.filter((role) => role !== 'admin') ?? [];
  const who = operator.roles === undefined ? 'any operator' : roles.length === 0 ? 'an operator with the admin role' : `an operator with the ${roles.join(', ')} or admin role`;
  return `Operators only: ${who}, by the desk's session cookie or an API key (1002 without one; 1006 without the role, or a cookie call without its X-CSRF-Token).`;
}

function securityOf(access: Endpoint['access']): JsonSchema[] {
  if (operatorRolesOf(access)) return [{ operatorSession: [] }, { operatorToken: [] }];
  return access === 'public' ? [] : [{ token: [] }];
}

function operation(name: string, endpoint: Endpoint): JsonSchema {
  const bodyOptional = endpoint.body ? endpoint.body.safeParse(undefined).success : true;
  return {
    operationId: name,
    summary: endpoint.summary,
    description: accessText(endpoint.access),
    tags: [endpoint.path.split('/')[2] ?? 'api'],
    'x-access': endpoint.access,
    security: securityOf(endpoint.access),
    ...(endpoint.query ? { parameters: queryParameters(endpoint.query) } : {}),
    ...(endpoint.body
      ? { requestBody: { required: !bodyOptional, content: { 'application/json': { schema: jsonSchema(endpoint.body, 'input') } } } }
      : {}),
    responses: {
      200: { description: 'Success: code 0 with the result.', content: { 'application/json': { schema: jsonSchema(envelopeOf(endpoint.result), 'output') } } },
      default: {
        description: 'Failure: a non-zero code of docs/API.md with its HTTP status (see components.schemas.ApiCode).',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      },
    },
  };
}

/**
 * Builds the OpenAPI document of every endpoint in the contract catalogue.
 *
 * @returns the document as a plain object
 * @example
 * const doc = buildOpenApiDocument(); doc.paths['/api/dapp/dappParam'];
 */
export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [name, endpoint] of Object.entries(endpoints) as [string, Endpoint][]) {
    paths[endpoint.path] = { ...paths[endpoint.path], [endpoint.method.toLowerCase()]: operation(name, endpoint) };
  }
  const codeNames = Object.fromEntries(Object.entries(ApiCode).map(([key, value]) => [value, key]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Member DApp API',
      version: '1',
      description: 'GENERATED from api-schema by `npm run openapi`; do not edit. The prose contract is docs/API.md.',
    },
    paths,
    components: {
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The token from memberSignLogin, bare (quotes removed) or as "Bearer <token>".' },
        operatorSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'mdo_session',
          description: "The desk's HttpOnly session cookie set by opsSignIn; state-changing calls made with it also send opsSignIn's or opsMe's csrfToken as X-CSRF-Token.",
        },
        operatorToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'An operator API key (mdk_…), as "Bearer <key>" (operators only).' },
      },
      schemas: {
        ApiCode: {
          type: 'integer',
          enum: [...allApiCodes],
          description: allApiCodes.map((code) => `${code} ${codeNames[code]} (HTTP ${httpStatusOf[code]})`).join('; '),
        },
        ErrorEnvelope: {
          type: 'object',
          properties: { code: { $ref: '#/components/schemas/ApiCode' }, message: { type: 'string' } },
          required: ['code'],
        },
      },
    },
  };
}

/**
 * The committed text: stable key order, two-space indent, final newline.
 *
 * @returns the JSON text of the document
 * @example
 * await writeFile('docs/api/openapi.json', renderOpenApi());
 */
export function renderOpenApi(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

async function run(): Promise<number> {
  const text = renderOpenApi();
  if (process.argv.includes('--check')) {
    const committed = await readFile(openApiPath, 'utf8').catch(() => null);
    if (committed === text) return 0;
    console.error(`${path.relative(repoRoot, openApiPath)} is out of date with api-schema: run npm run openapi and commit it.`);
    return 1;
  }
  await mkdir(path.dirname(openApiPath), { recursive: true });
  await writeFile(openApiPath, text);
  console.log(`wrote ${path.relative(repoRoot, openApiPath)}`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await run();
}
