import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const INVITE_CODE_LENGTH = 8;

/**
 * A random invite code: 8 characters of [A-Z0-9] (36^8 ≈ 2.8e12 codes, so collisions are rare; the caller still
 * retries on one, since the column is unique).
 *
 * @returns the code
 * @example
 * randomInviteCode(); // "K7Q2ZP0A"
 */
export function randomInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/**
 * Normalises a code as typed by a member: codes are stored upper case and matched case-insensitively.
 *
 * @param code - a code that passed the contract's inviteCodeSchema
 * @returns the stored form
 * @example
 * normaliseInviteCode('demo2026'); // "DEMO2026"
 */
export function normaliseInviteCode(code: string): string {
  return code.toUpperCase();
}
