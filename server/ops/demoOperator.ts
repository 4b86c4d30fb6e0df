/**
 * The demo operator of a development start (docs/operations.md, "Operators"): anvil's tenth well-known account, an
 * admin in the seed data when `npm start` runs the development chain outside production and there is no admin yet, so a
 * fresh clone signs in at /ops with it. Not the development chain's deployer (0), treasury (1, also
 * docs/operations.md's top-up example) or payer (2). Its key is public: a real chain never seeds it (main.ts).
 */
import type { Address } from 'viem';
import { WELL_KNOWN_DEV_KEYS } from '../chain/wellKnownKeys';
import type { Db } from '../db/client';
import { addFirstAdmin } from './operators';

export const DEMO_OPERATOR_KEY = WELL_KNOWN_DEV_KEYS[9];
/**
 * The key's address, written out: deriving it as the module loads cost every start, production's too, about 0.1 s
 * of CPU (the curve's first multiplication builds its tables). tests/server/opsFirstAdmin.test.ts signs in with the key.
 */
export const DEMO_OPERATOR_ADDRESS: Address = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

/**
 * Makes the demo operator an admin when there is no admin yet (audited as the seed's act).
 *
 * @param db - database handle
 * @param now - the current instant
 * @returns whether it was added
 * @example
 * await seedDemoOperator(db, new Date());
 */
export async function seedDemoOperator(db: Db, now: Date): Promise<boolean> {
  return addFirstAdmin(
    db,
    DEMO_OPERATOR_ADDRESS,
    { at: now, actorAddress: null, actorRoles: [], via: 'seed', requestId: null, clientAddress: null },
    'seedDemoOperator',
  );
}
