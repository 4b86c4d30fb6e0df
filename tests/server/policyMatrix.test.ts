/**
 * The operators' policy as a matrix (docs/API.md, "Operators: the policy"): every rule × every role × to another or
 * to oneself × under or over what one may do alone, decided in a transaction on each database as an act decides it.
 * The expected answer is computed from the rule's row in the docs' table, not from the module.
 */
import { expect, it } from 'vitest';
import { apiCodeOf } from '../../server/errors';
import { toMinor } from '../../api-schema/amount';
import { operatorRoles, type OperatorRole } from '../../api-schema/endpoint';
import { ApiCode } from '../../api-schema/codes';
import { decidePolicy, defaultPolicyLimits, operatorsPolicy, recordPolicyUse, type PolicyAct } from '../../server/ops/policy';
import { describeWithDatabases } from './support/harness';
import { accounts } from './support/memberSignIn';

const Q = toMinor('1000');

/** The docs' table: who may, whether it goes to a member, and what is above one operator alone. */
const TABLE: Record<PolicyAct, { roles: OperatorRole[]; member: boolean; above: 'confirm' | 'refuse' | null; cap: bigint | null; neverAlone?: true }> = {
  grant: { roles: ['finance'], member: true, above: 'confirm', cap: 100n * Q },
  deduct: { roles: ['finance'], member: true, above: 'confirm', cap: 100n * Q },
  withdrawalApprove: { roles: ['finance'], member: true, above: 'confirm', cap: null },
  topUpRelease: { roles: ['finance'], member: true, above: 'confirm', cap: null },
  orderRefund: { roles: ['support'], member: true, above: 'confirm', cap: null },
  fund: { roles: ['finance'], member: false, above: 'refuse', cap: 100n * Q },
  poolAmount: { roles: ['finance'], member: false, above: null, cap: 100n * Q },
  distribute: { roles: ['finance'], member: false, above: null, cap: null },
  topUpsReread: { roles: ['finance'], member: false, above: null, cap: null },
  paymentsRecover: { roles: ['finance'], member: false, above: null, cap: null },
  unknownPaymentSettle: { roles: ['finance'], member: true, above: 'confirm', cap: null },
  payoutsResume: { roles: ['finance'], member: false, above: 'confirm', cap: null, neverAlone: true },
  moneySettings: { roles: ['finance'], member: false, above: 'confirm', cap: null, neverAlone: true },
};

type Answer = 'alone' | 'confirm' | number | string;

describeWithDatabases('the operators’ policy matrix', (ctx) => {
  it('decides every rule × role × self or other × under or over, as the table in the docs says', async () => {
    const policy = operatorsPolicy(defaultPolicyLimits(Q));
    expect(policy.rules.map((rule) => rule.act).sort()).toEqual(Object.keys(TABLE).sort());
    const operator = accounts.dave.address;
    const member = { id: 7, address: accounts.alice.address };
    const self = { id: 8, address: operator };
    const mismatches: string[] = [];
    for (const [act, row] of Object.entries(TABLE) as [PolicyAct, (typeof TABLE)[PolicyAct]][]) {
      for (const role of operatorRoles) {
        for (const toSelf of row.member ? [false, true] : [false]) {
          for (const amount of [Q, Q + 1n, row.cap === null ? 10_000n * Q : row.cap + 1n]) {
            const actor = { address: operator, roles: [role] as const };
            const check = { act, actor, amount, member: row.member ? (toSelf ? self : member) : undefined };
            // A transaction each, as an act's: the decision reads and locks, and writes nothing (nothing is counted).
            let answer: Answer;
            try {
              answer = await ctx.db.transaction((tx) => decidePolicy(tx, policy, check, ctx.clock.now()));
            } catch (error) {
              answer = apiCodeOf(error) ?? String(error);
            }
            const holds = role === 'admin' || row.roles.includes(role);
            const expected: Answer = !holds
              ? ApiCode.roleRequired
              : toSelf
                ? ApiCode.selfActRefused
                : row.cap !== null && amount > row.cap
                  ? ApiCode.policyLimit
                  : row.neverAlone
                    ? 'confirm'
                    : row.above === null || amount <= Q
                    ? 'alone'
                    : row.above === 'confirm'
                      ? 'confirm'
                      : ApiCode.policyLimit;
            if (answer !== expected) mismatches.push(`${act} ${role} ${toSelf ? 'self' : 'other'} ${amount}: ${String(answer)} (expected ${String(expected)})`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('counts the 24-hour totals per operator and per member, and forgets them after 24 hours', async () => {
    const policy = operatorsPolicy({ perAct: Q, operatorDay: 3n * Q, memberDay: 2n * Q, cap: 100n * Q });
    const actor = { address: accounts.dave.address, roles: ['finance'] as const };
    const decide = (memberId: number, amount: bigint) =>
      ctx.db.transaction(async (tx) => {
        const verdict = await decidePolicy(tx, policy, { act: 'grant', actor, amount, member: { id: memberId, address: accounts.alice.address } }, ctx.clock.now());
        if (verdict === 'alone') await recordPolicyUse(tx, { act: 'grant', operator: actor.address, memberId, amount, now: ctx.clock.now() });
        return verdict;
      });
    // Member 1: two acts of Q alone, the third over the member's 2 Q. Member 2: one more alone, then the operator's 3 Q.
    expect([await decide(1, Q), await decide(1, Q), await decide(1, 1n)]).toEqual(['alone', 'alone', 'confirm']);
    expect([await decide(2, Q), await decide(2, 1n)]).toEqual(['alone', 'confirm']);
    // Another act's totals are its own: a deduction is not a grant.
    const deduct = await ctx.db.transaction((tx) => decidePolicy(tx, policy, { act: 'deduct', actor, amount: Q, member: { id: 1, address: accounts.alice.address } }, ctx.clock.now()));
    expect(deduct).toBe('alone');
    ctx.clock.advance(24 * 60 * 60 * 1000 + 1);
    expect(await decide(1, Q)).toBe('alone');
  });
});
