import { describe, expect, it } from 'vitest';
import { isInviteCode } from './fieldRules';
import { inviteCodeSchema } from '../../api-schema/primitives';

describe('machine field rules agree with the contract', () => {
  it.each(['DEMO2026', 'ab12', 'A1B2C3D4E5F6G7H8', 'abc', 'A1B2C3D4E5F6G7H8X', 'no!', 'DEMO 2026', ''])('invite code %j', (code) => {
    expect(isInviteCode(code)).toBe(inviteCodeSchema.safeParse(code).success);
  });
});
