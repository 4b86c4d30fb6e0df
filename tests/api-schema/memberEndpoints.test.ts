/**
 * The member app's contract carries every call that is not an operator's (nor the desk's sign-in), and no operator
 * call (members never download the desk's schemas).
 */
import { describe, expect, it } from 'vitest';
import { operatorRolesOf } from '../../api-schema/endpoint';
import { endpoints } from '../../api-schema/endpoints';
import { memberEndpoints } from '../../api-schema/memberEndpoints';
import * as deskIdentity from '../../api-schema/ops';
import * as health from '../../api-schema/health';

describe('the member app\'s calls', () => {
  it('behavior: are every call of endpoints.ts that is not an operator\'s, the same objects', () => {
    // The desk's own sign-in calls are public, yet the desk's (api-schema/ops.ts); health is a load balancer's.
    const deskCalls = new Set<unknown>([...Object.values(deskIdentity), health.healthLive, health.healthReady]);
    const expected = Object.entries(endpoints).filter(([, endpoint]) => operatorRolesOf(endpoint.access) === undefined && !deskCalls.has(endpoint));
    expect(Object.keys(memberEndpoints).sort()).toEqual(expected.map(([name]) => name).sort());
    for (const [name, endpoint] of expected) expect(memberEndpoints[name as keyof typeof memberEndpoints]).toBe(endpoint);
  });
});
