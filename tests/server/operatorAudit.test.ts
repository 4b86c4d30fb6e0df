/**
 * Every operator call that changes something writes an audit row (docs/API.md, "Operators"): each state-changing
 * operator endpoint of the contract names its audit action in the server's code (the action is the endpoint's
 * name), so a new call without a row fails here and is listed. The rows themselves are asserted by each area's suite
 * (opsAudit, operatorsPolicy, opsFinance, opsTopUps, opsOrders, opsContent, opsOperatorChanges).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { operatorRolesOf } from '../../api-schema/endpoint';
import { endpoints } from '../../api-schema/endpoints';

const serverDir = path.resolve(import.meta.dirname, '../../server');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourcesUnder(file);
    // The server's own code only: a test beside a module names the calls it makes, audited or not.
    return file.endsWith('.ts') && !file.endsWith('.test.ts') ? [readFileSync(file, 'utf8')] : [];
  });
}

it('names an audit action for every state-changing operator call', () => {
  const code = sourcesUnder(serverDir).join('\n');
  const changing = Object.entries(endpoints).filter(([, endpoint]) => endpoint.method === 'POST' && operatorRolesOf(endpoint.access) !== undefined);
  expect(changing.length).toBeGreaterThan(20);
  // A handler is registered under the endpoint's name unquoted; the quoted name is its audit row's action.
  const unaudited = changing.map(([name]) => name).filter((name) => !code.includes(`'${name}'`));
  expect(unaudited, 'operator calls that change something and write no audit row').toEqual([]);
});
