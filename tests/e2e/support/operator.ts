/**
 * The operator API as the e2e journeys call it (docs/API.md "Operations"): a POST with the file's ADMIN_TOKEN to the
 * server the journeys run against.
 */
import type { JourneyHarness } from './journey';

/** The one ADMIN_TOKEN the journeys start their servers with. */
export const e2eAdminToken = 'e2e-admin-token-0123456789abcdef0123456789';

export interface Envelope<T> {
  code: number;
  result?: T;
}

/**
 * An operator call, answered with the server's envelope.
 *
 * @param e2e - the file's journey harness (its server)
 * @param path - e.g. /api/admin/grant
 * @param body - the request body
 * @returns the envelope
 * @example
 * const grant = await operator(e2e, '/api/admin/grant', { address, asset: 'WPOS', amount: '100', requestId });
 */
export async function operator<T>(e2e: JourneyHarness, path: string, body: unknown): Promise<Envelope<T>> {
  const response = await fetch(`${e2e.server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Admin-Token': e2eAdminToken },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Envelope<T>;
}
