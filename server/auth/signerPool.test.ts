/** SignerPool recovers in worker threads exactly what recoverSigner recovers in the request thread. */
import { afterAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { SignerPool } from './signerPool';
import { recoverSigner } from '../siwe/verify';

const alice = privateKeyToAccount('0x1111111111111111111111111111111111111111111111111111111111111111');
const message = 'member.test wants you to sign in with your Ethereum account:\n…';

describe('SignerPool', { timeout: 30_000 }, () => {
  const pool = new SignerPool(2);
  afterAll(() => pool.close());

  it('behavior: recovers the signer, as recoverSigner does', async () => {
    const signature = await alice.signMessage({ message });
    expect(await pool.recover(message, signature)).toBe(alice.address);
    expect(await pool.recover(message, signature)).toBe(await recoverSigner(message, signature));
    // Another message under the same signature recovers some other address.
    expect(await pool.recover(`${message}!`, signature)).not.toBe(alice.address);
  });

  it.each([
    ['not hex', 'hello'],
    ['too short', `0x${'ab'.repeat(64)}`],
    ['r and s out of range', `0x${'ff'.repeat(64)}1b`],
    ['v not 0, 1, 27 or 28', `0x${'11'.repeat(64)}05`],
  ])('behavior: a malformed signature (%s) has no signer', async (_name, signature) => {
    expect(await pool.recover(message, signature)).toBeUndefined();
    expect(await recoverSigner(message, signature)).toBeUndefined();
  });

  it('behavior: answers many recoveries at once, each with its own signer', async () => {
    const keys = Array.from({ length: 8 }, (_, i) => privateKeyToAccount(`0x${(i + 1).toString(16).padStart(64, '0')}`));
    const signed = await Promise.all(keys.map(async (key) => ({ key, signature: await key.signMessage({ message }) })));
    const signers = await Promise.all(signed.map(({ signature }) => pool.recover(message, signature)));
    expect(signers).toEqual(keys.map((key) => key.address));
  });

  it('behavior: fails the recoveries in flight when stopped, and starts again afterwards', async () => {
    const signature = await alice.signMessage({ message });
    const inFlight = pool.recover(message, signature);
    // Handle the rejection before closing: close() rejects it before it awaits the workers' exit.
    const failed = expect(inFlight).rejects.toThrow('signer pool closed');
    await pool.close();
    await failed;
    expect(await pool.recover(message, signature)).toBe(alice.address);
  });
});
