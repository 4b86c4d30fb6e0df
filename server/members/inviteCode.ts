import { randomInt } from 'node:crypto';

/**
 * Crockford's base32 digits (https://www.crockford.com/base32.html): no I, L, O or U, so a code read aloud or typed
 * from a poster has no pair of look-alikes. Codes made before it used [A-Z0-9] and keep working.
 */
export const INVITE_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const INVITE_CODE_LENGTH = 8;

/**
 * The look-alikes a member may type for a digit, as Crockford's decoding reads them: O for 0, I and L for 1. Both
 * lookalikeKey and the index of migration 0010 (translate(invite_code, 'OIL', '011')) use these two strings.
 */
export const LOOKALIKE_LETTERS = 'OIL';
export const LOOKALIKE_DIGITS = '011';

/**
 * A random invite code: 8 of Crockford's 32 digits (32^8 ≈ 1.1e12 codes, so collisions are rare; the caller still
 * retries on one, since the column is unique).
 *
 * @returns the code
 * @example
 * randomInviteCode(); // "K7Q2ZP0A"
 */
export function randomInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) code += INVITE_CODE_ALPHABET[randomInt(INVITE_CODE_ALPHABET.length)];
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

/**
 * The form two codes share when they differ only by look-alikes (O/0, I/1, L/1): what a code typed with one is
 * matched by when no code is exactly what was typed.
 *
 * @param code - a normalised (upper-case) code
 * @returns the code with O read as 0 and I, L as 1
 * @example
 * lookalikeKey('9DS0I86B'); // "9DS0186B"
 * lookalikeKey('9DSO186B'); // "9DS0186B"
 */
export function lookalikeKey(code: string): string {
  let key = '';
  for (const char of code) {
    const at = LOOKALIKE_LETTERS.indexOf(char);
    key += at === -1 ? char : LOOKALIKE_DIGITS[at];
  }
  return key;
}
