/**
 * Field rules the machines check before anything is sent. They mirror the contract's zod schemas
 * (api-schema/primitives.ts); machines cannot import src/, so fieldRules.test.ts beside this file ties the two.
 */
export const inviteCodePattern = /^[A-Za-z0-9]{4,16}$/;

/** True for an invite code of 4 to 16 letters or digits. */
export function isInviteCode(value: string): boolean {
  return inviteCodePattern.test(value);
}

/** The fewest hex characters a team search needs (docs/API.md "Member": team/search). */
export const minSearchHexLength = 4;

export type AddressKeywordCheck = 'empty' | 'tooShort' | 'notHex' | 'ok';

/**
 * Checks a team-search keyword as the server will: an address fragment of at least 4 hex characters, with or
 * without 0x, case-insensitive.
 *
 * @example checkAddressKeyword('0xAb') // 'tooShort'
 */
export function checkAddressKeyword(value: string): AddressKeywordCheck {
  const fragment = value.trim().replace(/^0x/i, '');
  if (value.trim() === '') return 'empty';
  if (!/^[0-9a-f]*$/i.test(fragment)) return 'notHex';
  return fragment.length < minSearchHexLength ? 'tooShort' : 'ok';
}
