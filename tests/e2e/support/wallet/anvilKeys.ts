/**
 * Well-known anvil/hardhat development keys (mnemonic "test test ... junk") for the test wallets. Public on purpose:
 * they hold nothing and must never be used on a real network (a real chain refuses them: server/chain/wellKnownKeys.ts).
 */
export { WELL_KNOWN_DEV_KEYS as anvilKeys } from '../../../../server/chain/wellKnownKeys';
