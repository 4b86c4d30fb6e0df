/**
 * The native signer recovery (libsecp256k1) answers exactly as viem's recoverMessageAddress, the oracle: the same
 * signer, or the same refusal, for the spruceid EIP-4361 vectors (read in place, as server/siwe/vectors.test.ts reads them),
 * random keys and messages, and malformed signatures. Without the binding, sign-in falls back to viem.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { chooseSignerRecovery } from './signerRecovery';
import { isSecp256k1Binding, recoverWithBinding, signatureParts, type Secp256k1Binding } from '../siwe/recoverNative';
import { formatSiweMessage } from '../siwe/format';
import { recoverSigner } from '../siwe/verify';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const vectorsDir = path.resolve(repoRoot, '../shared/vectors/siwe');
const loadBinding = () => import('secp256k1/bindings.js');

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const hex32 = (value: bigint) => value.toString(16).padStart(64, '0');
const message = 'member.test wants you to sign in with your Ethereum account:\n…';

let binding: Secp256k1Binding;
beforeAll(async () => {
  const loaded = (await loadBinding()).default;
  if (!isSecp256k1Binding(loaded)) throw new Error('the secp256k1 binding did not load on this machine');
  binding = loaded;
});

/** Both recoveries of one signature: equal, and what they are. */
async function bothRecover(text: string, signature: string) {
  const native = recoverWithBinding(binding, text, signature);
  expect(native).toBe(await recoverSigner(text, signature));
  return native;
}

/** A signature of `text` by a fresh key, split into r, s and v (hex). */
async function signedParts(text: string) {
  const account = privateKeyToAccount(generatePrivateKey());
  const signature = await account.signMessage({ message: text });
  return { account, signature, r: signature.slice(2, 66), s: signature.slice(66, 130), v: signature.slice(130) };
}

describe('signerRecovery: the spruceid vectors through libsecp256k1 and viem', () => {
  const cases = ['verification_positive.json', 'verification_negative.json'].flatMap((file) =>
    Object.entries(JSON.parse(readFileSync(path.join(vectorsDir, file), 'utf8')) as Record<string, Record<string, unknown>>).map(
      ([name, testCase]) => [`${file.replace('.json', '')}: ${name}`, testCase] as const,
    ),
  );

  it.each(cases)('recovers the same signer of "%s"', async (name, testCase) => {
    let text: string;
    try {
      text = formatSiweMessage(testCase);
    } catch {
      // The calendar-impossible dates: refused before any signature is looked at (server/siwe/vectors.test.ts).
      expect(name).toMatch(/invalid /);
      return;
    }
    const signature = typeof testCase.signature === 'string' ? testCase.signature : '';
    const signer = await bothRecover(text, signature);
    if (name.startsWith('verification_positive')) expect(signer).toBe(testCase.address);
  });
});

describe('signerRecovery: random keys and messages', () => {
  it('recovers every signer as viem does, with v as 27/28 and as 0/1', async () => {
    for (let index = 0; index < 24; index++) {
      const text = `${message} ${index} ${Math.random()}`;
      const { account, signature, r, s, v } = await signedParts(text);
      expect(await bothRecover(text, signature)).toBe(account.address);
      const yParity = (Number.parseInt(v, 16) - 27).toString(16).padStart(2, '0');
      expect(await bothRecover(text, `0x${r}${s}${yParity}`)).toBe(account.address);
      // The same signature over another message is some other signer, for both.
      expect(await bothRecover(`${text}!`, signature)).not.toBe(account.address);
    }
  });

  it('accepts a high s as viem does (the same signer, v flipped)', async () => {
    const { account, r, s, v } = await signedParts(message);
    const highS = hex32(N - BigInt(`0x${s}`));
    const flipped = v === '1b' ? '1c' : '1b';
    expect(await bothRecover(message, `0x${r}${highS}${flipped}`)).toBe(account.address);
  });
});

describe('signerRecovery: malformed signatures are refused by both', () => {
  it.each([
    ['not hex', () => 'hello'],
    ['no 0x', (r: string, s: string, v: string) => `${r}${s}${v}`],
    ['64 bytes', (r: string, s: string) => `0x${r}${s}`],
    ['66 bytes', (r: string, s: string, v: string) => `0x${r}${s}${v}00`],
    ['a non-hex digit', (r: string, s: string, v: string) => `0x${r}${s.slice(0, 63)}g${v}`],
    ['v 2', (r: string, s: string) => `0x${r}${s}02`],
    ['v 26', (r: string, s: string) => `0x${r}${s}1a`],
    ['v 29', (r: string, s: string) => `0x${r}${s}1d`],
    ['v 37 (EIP-155)', (r: string, s: string) => `0x${r}${s}25`],
    ['v 255', (r: string, s: string) => `0x${r}${s}ff`],
    ['r zero', (_r: string, s: string, v: string) => `0x${hex32(0n)}${s}${v}`],
    ['s zero', (r: string, _s: string, v: string) => `0x${r}${hex32(0n)}${v}`],
    ['r = n', (_r: string, s: string, v: string) => `0x${hex32(N)}${s}${v}`],
    ['s = n', (r: string, _s: string, v: string) => `0x${r}${hex32(N)}${v}`],
    ['r = n + 1', (_r: string, s: string, v: string) => `0x${hex32(N + 1n)}${s}${v}`],
    ['s = n + 1', (r: string, _s: string, v: string) => `0x${r}${hex32(N + 1n)}${v}`],
    ['r and s all ones', (_r: string, _s: string, v: string) => `0x${'ff'.repeat(64)}${v}`],
  ])('%s', async (_name, make) => {
    const { r, s, v } = await signedParts(message);
    const signature = make(r, s, v);
    expect(signatureParts(signature)).toBeUndefined();
    expect(await bothRecover(message, signature)).toBeUndefined();
  });

  it('an r that is no point on the curve, and r and s at the ends of their range, get the same answer', async () => {
    // x = 5 is not on secp256k1 (5^3 + 7 = 132 is no square mod p): no signer for either.
    const { s, v } = await signedParts(message);
    expect(await bothRecover(message, `0x${hex32(5n)}${s}${v}`)).toBeUndefined();
    for (const candidate of [1n, 2n, N - 1n]) await bothRecover(message, `0x${hex32(candidate)}${hex32(candidate)}${v}`);
  });
});

describe('signerRecovery: the choice', { timeout: 30_000 }, () => {
  const choose = (load: () => Promise<unknown>) => chooseSignerRecovery(load);

  it('uses libsecp256k1 where its binding loads', async () => {
    const recovery = await choose(loadBinding);
    expect(recovery.engine).toBe('libsecp256k1');
    // The same answers as viem's: a signer, a high s, malformed signatures.
    const { account, signature, r, s, v } = await signedParts(message);
    const highS = `0x${r}${hex32(N - BigInt(`0x${s}`))}${v === '1b' ? '1c' : '1b'}`;
    const cases = [signature, highS, `0x${r}${s}02`, `0x${hex32(N)}${s}${v}`, `0x${r}${hex32(0n)}${v}`, `0x${hex32(5n)}${s}${v}`, `0x${r}${s}`];
    const pooled = await Promise.all(cases.map((candidate) => recovery.recover(message, candidate)));
    expect(pooled).toEqual(await Promise.all(cases.map((candidate) => recoverSigner(message, candidate))));
    expect(pooled.slice(0, 2)).toEqual([account.address, account.address]);
  });

  it.each([
    ['the binding does not load', () => Promise.reject(new Error('No native build was found')), 'No native build was found'],
    ['the package gives something else (its elliptic fallback)', async () => ({ default: { ecdsaSign: () => undefined } }), 'has no ecdsaRecover'],
    [
      'the binding recovers a wrong key',
      async () => ({ default: { ecdsaRecover: () => new Uint8Array(65).fill(4) } }),
      'recovered the wrong signer',
    ],
  ])('falls back to viem when %s', async (_name, load, reason) => {
    const recovery = await choose(load);
    expect(recovery.engine).toBe('viem');
    expect(recovery.fallbackReason).toContain(reason);
  });

  it('the fallback recovers with viem', async () => {
    const recovery = await choose(() => Promise.reject(new Error('no binding here')));
    const { account, signature } = await signedParts(message);
    expect(await recovery.recover(message, signature)).toBe(account.address);
    expect(await recovery.recover(message, `0x${'ff'.repeat(64)}1b`)).toBeUndefined();
  });
});
