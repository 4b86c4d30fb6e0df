import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../api-schema/endpoints';
import { buildOpenApiDocument, openApiPath, renderOpenApi } from '../../scripts/openapi';

describe('docs/api/openapi.json', () => {
  it('behavior: is what the contract generates (npm run openapi)', async () => {
    expect(await readFile(openApiPath, 'utf8')).toBe(renderOpenApi());
  });

  it('behavior: has every endpoint of the catalogue under its method, path and name', () => {
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, { operationId: string; 'x-access': string }>>;
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const operation = paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      expect(operation, name).toMatchObject({ operationId: name, 'x-access': endpoint.access });
    }
  });
});
