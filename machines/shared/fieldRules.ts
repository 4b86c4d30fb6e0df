/**
 * Field rules the machines check before anything is sent. They mirror the contract's zod schemas
 * (api-schema/primitives.ts); machines cannot import src/, so tests/machines/fieldRules.test.ts ties the two.
 */
export const inviteCodePattern = /^[A-Za-z0-9]{4,16}$/;

/** True for an invite code of 4 to 16 letters or digits. */
export function isInviteCode(value: string): boolean {
  return inviteCodePattern.test(value);
}
