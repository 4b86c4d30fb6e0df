/**
 * The operators' policy (docs/API.md, "Operators: the policy"; docs/decisions/0032-no-operator-alone.md): one ordered
 * table of rules that every operator act creating or moving value passes, in the act's own transaction. A rule names
 * the act, the roles that may do it, what one operator may do alone (per act, and in total per operator and per
 * member over a rolling 24 hours) and what happens above that: a second operator confirms, or it is refused. Totals
 * count every act done (ops_policy_usage, written with the act), so splitting an amount never escapes a rule; the
 * totals' rows are read under transaction-scoped advisory locks of the operator and the member, so two acts at once,
 * on any number of server instances, are counted one after the other. Nobody acts to their own member address or
 * confirms their own request.
 *
 * Modelled on transaction authorization policies (Fireblocks' ordered rules with per-transaction and time-window
 * amounts; BitGo's velocity limits; layered per-act, window and absolute limits), kept as a small table in code.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import type { OperatorRole } from '../../api-schema/endpoint';
import { bigintText, queryRows, type Db } from '../db/client';
import { PolicyLimitError, RoleRequiredError, SelfActRefusedError } from '../errors';
import { holdsRole, type OperatorActor } from './actor';

/** Every act the policy decides. */
export const POLICY_ACTS = ['grant', 'deduct', 'withdrawalApprove', 'topUpRelease', 'orderRefund', 'fund', 'poolAmount', 'distribute', 'topUpsReread', 'paymentsRecover', 'unknownPaymentSettle', 'payoutsResume', 'moneySettings'] as const;
export type PolicyAct = (typeof POLICY_ACTS)[number];

/** The settings the rules are made of, in minor units (server/env.ts: APPROVAL_QUORUM_ABOVE and OPS_*). */
export interface PolicyLimits {
  /** What one act may move alone (APPROVAL_QUORUM_ABOVE). */
  perAct: bigint;
  /** What one operator may move alone in 24 hours, per act (OPS_OPERATOR_DAY_TOTAL). */
  operatorDay: bigint;
  /** What may go to (or from) one member alone in 24 hours, per act (OPS_MEMBER_DAY_TOTAL). */
  memberDay: bigint;
  /** What one act may move at all, even with a second operator (OPS_ACT_CAP). */
  cap: bigint;
}

/**
 * The defaults: alone up to 1,000 an act, 5,000 an operator and 1,000 a member a day; 100,000 an act at most.
 *
 * @param perAct - APPROVAL_QUORUM_ABOVE in minor units
 * @returns the limits, the others as multiples of it
 * @example
 * defaultPolicyLimits(1_000_000_000n).operatorDay; // 5_000_000_000n
 */
export function defaultPolicyLimits(perAct: bigint): PolicyLimits {
  return { perAct, operatorDay: 5n * perAct, memberDay: perAct, cap: 100n * perAct };
}

export interface PolicyRule {
  act: PolicyAct;
  roles: readonly OperatorRole[];
  /**
   * What one operator does alone; null: the act moves no amount of its own choosing (it pays what was funded or what
   * the chain shows); 'never': always a second operator, whatever the amount.
   */
  alone: { perAct: bigint; operatorDay: bigint; memberDay: bigint | null } | null | 'never';
  /** Above what one may do alone. */
  above: 'confirm' | 'refuse';
  /** Refused above this per act, whoever confirms; null: no absolute cap. */
  cap: bigint | null;
  /** The act benefits a member, who must not be the operator. */
  notToSelf: boolean;
  /** One line for the docs and the desk. */
  why: string;
}

/**
 * The rules, in order (the first rule naming an act decides it).
 *
 * @param limits - the settings
 * @returns the table
 * @example
 * const rules = policyRules(defaultPolicyLimits(1_000_000_000n));
 */
export function policyRules(limits: PolicyLimits): readonly PolicyRule[] {
  const alone = { perAct: limits.perAct, operatorDay: limits.operatorDay, memberDay: limits.memberDay };
  return [
    { act: 'grant', roles: ['finance'], alone, above: 'confirm', cap: limits.cap, notToSelf: true, why: 'Credit or WPOS from issuance to a member: new value.' },
    { act: 'deduct', roles: ['finance'], alone, above: 'confirm', cap: limits.cap, notToSelf: true, why: "A member's credit or WPOS back to issuance; it may take from a frozen member." },
    { act: 'withdrawalApprove', roles: ['finance'], alone, above: 'confirm', cap: null, notToSelf: true, why: 'Value leaves on chain: a second approval above what one approves alone.' },
    { act: 'topUpRelease', roles: ['finance'], alone, above: 'confirm', cap: null, notToSelf: true, why: 'A held top-up credited to a member of the operator’s choosing.' },
    { act: 'orderRefund', roles: ['support'], alone, above: 'confirm', cap: null, notToSelf: true, why: "An order's payment back to the member who paid it." },
    { act: 'fund', roles: ['finance'], alone: { ...alone, memberDay: null }, above: 'refuse', cap: limits.cap, notToSelf: false, why: 'The share pools’ WPOS or the exchange’s CREDIT, from issuance: what they may pay out.' },
    { act: 'poolAmount', roles: ['finance'], alone: null, above: 'refuse', cap: limits.cap, notToSelf: false, why: 'A share pool’s daily amount; it pays only from the funded pools account.' },
    { act: 'distribute', roles: ['finance'], alone: null, above: 'refuse', cap: null, notToSelf: false, why: 'A day’s payout, from the funded pools account.' },
    { act: 'topUpsReread', roles: ['finance'], alone: null, above: 'refuse', cap: null, notToSelf: false, why: 'Credits only what the chain shows at depth.' },
    { act: 'paymentsRecover', roles: ['finance'], alone: null, above: 'refuse', cap: null, notToSelf: false, why: 'Records only what the chain shows the hot wallet did, at depth.' },
    {
      act: 'unknownPaymentSettle',
      roles: ['finance'],
      alone,
      above: 'confirm',
      cap: null,
      notToSelf: true,
      why: 'A payment on chain the database never knew, debited from the member it paid or written off: a second approval above what one settles alone.',
    },
    {
      act: 'payoutsResume',
      roles: ['finance'],
      alone: 'never',
      above: 'confirm',
      cap: null,
      notToSelf: false,
      why: 'Payouts paused on doubt go on again: always two operators, and only once the cause is gone.',
    },
    {
      act: 'moneySettings',
      roles: ['finance'],
      alone: 'never',
      above: 'confirm',
      cap: null,
      notToSelf: false,
      why: 'The minimum and maximum withdrawal, its fee, the daily cap, the exchange rate and the minimum transfer: what every member is charged or allowed, so always two operators.',
    },
  ];
}

/** The policy of one server: its rules, looked up by act. */
export interface OperatorsPolicy {
  rules: readonly PolicyRule[];
  ruleOf(act: PolicyAct): PolicyRule;
}

/**
 * The policy from its settings.
 *
 * @param limits - the settings
 * @returns the policy
 * @example
 * const policy = operatorsPolicy(defaultPolicyLimits(toMinor('1000')));
 */
export function operatorsPolicy(limits: PolicyLimits): OperatorsPolicy {
  const rules = policyRules(limits);
  return {
    rules,
    ruleOf(act) {
      const rule = rules.find((candidate) => candidate.act === act);
      if (!rule) throw new Error(`the operators' policy has no rule for ${act}`);
      return rule;
    },
  };
}

/** Who the totals and request ids count against: the operator's address. */
export const actorKeyOf = (actor: Pick<OperatorActor, 'address'>): string => actor.address;

const sameAddress = (a: string, b: string | null | undefined): boolean => b !== null && b !== undefined && a.toLowerCase() === b.toLowerCase();

/** What an act is, for the policy. */
export interface PolicyCheck {
  act: PolicyAct;
  actor: Pick<OperatorActor, 'address' | 'roles'>;
  /** Minor units the act moves (0 for acts without an amount). */
  amount: bigint;
  /** The member it goes to or comes from, if any. */
  member?: { id: number; address: string } | undefined;
}

/** The verdict: the operator acts alone, or the act waits for a second operator. Refusals are thrown. */
export type PolicyVerdict = 'alone' | 'confirm';

const totalsRow = z.object({ operator: bigintText, member: bigintText });

/** The act's rule, once the actor may act at all: the role, not to oneself, the absolute cap (1006, 1007, 3009). */
function ruleAllowing(policy: OperatorsPolicy, check: PolicyCheck): PolicyRule {
  const rule = policy.ruleOf(check.act);
  if (!rule.roles.some((role) => holdsRole(check.actor, role))) throw new RoleRequiredError();
  if (rule.notToSelf && sameAddress(check.actor.address, check.member?.address)) throw new SelfActRefusedError();
  if (rule.cap !== null && check.amount > rule.cap) throw new PolicyLimitError(`: at most ${formatMinor(rule.cap)} per act`);
  return rule;
}

/** Transaction-scoped advisory lock keys of the policy's totals (hashtextextended: one key space with the ledger's). */
const lockKey = (text: string) => sql`hashtextextended(${text}, 4362)`;

/**
 * Decides an act against its rule, inside the act's transaction: role, not to oneself, the cap, then what one
 * operator may do alone given the 24-hour totals (read under the operator's and the member's locks, held until the
 * transaction ends, so a concurrent act waits and then counts this one).
 *
 * @param tx - the act's transaction
 * @param policy - the server's policy
 * @param check - act, actor, amount, member
 * @param now - the act's time
 * @returns 'alone' or 'confirm'
 * @throws RoleRequiredError (1006), SelfActRefusedError (1007), PolicyLimitError (3009)
 * @example
 * if ((await decidePolicy(tx, deps.policy, { act: 'grant', actor, amount, member }, now)) === 'confirm') ...
 */
export async function decidePolicy(tx: Db, policy: OperatorsPolicy, check: PolicyCheck, now: Date): Promise<PolicyVerdict> {
  const rule = ruleAllowing(policy, check);
  if (rule.alone === null) return 'alone';
  if (rule.alone === 'never') return 'confirm';
  const operator = actorKeyOf(check.actor);
  const memberId = check.member?.id;
  // Operator before member, always: two acts never wait for each other's locks in opposite orders.
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${lockKey(`policy:${check.act}:operator:${operator}`)})`);
  if (memberId !== undefined) await tx.execute(sql`SELECT pg_advisory_xact_lock(${lockKey(`policy:${check.act}:member:${memberId}`)})`);
  const since = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
  const [totals] = await queryRows(
    tx,
    sql`SELECT
          (SELECT coalesce(sum(amount), 0) FROM ops_policy_usage WHERE act = ${check.act} AND operator = ${operator} AND at > ${since}::timestamptz) AS operator,
          (SELECT coalesce(sum(amount), 0) FROM ops_policy_usage WHERE act = ${check.act} AND member_id = ${memberId ?? null}::int AND at > ${since}::timestamptz) AS member`,
    totalsRow,
  );
  const { perAct, operatorDay, memberDay } = rule.alone;
  const within =
    check.amount <= perAct && (totals?.operator ?? 0n) + check.amount <= operatorDay && (memberDay === null || (totals?.member ?? 0n) + check.amount <= memberDay);
  if (within) return 'alone';
  if (rule.above === 'refuse') throw new PolicyLimitError(': one operator alone, and this act does not wait for a second');
  return 'confirm';
}

/**
 * A second operator's confirmation of an act that waited: role, not the requester, not to oneself, the cap.
 *
 * @param policy - the server's policy
 * @param check - the act as requested, with the confirming actor
 * @param requestedBy - the requester's key (actorKeyOf)
 * @throws RoleRequiredError (1006), SelfActRefusedError (1007), PolicyLimitError (3009)
 * @example
 * confirmPolicy(deps.policy, { act: 'grant', actor, amount, member }, row.requestedBy);
 */
export function confirmPolicy(policy: OperatorsPolicy, check: PolicyCheck, requestedBy: string | null): void {
  ruleAllowing(policy, check);
  if (sameAddress(check.actor.address, requestedBy)) throw new SelfActRefusedError();
}

/**
 * Counts an act that moved value against its totals, in the act's transaction.
 *
 * @param tx - the act's transaction
 * @param use - the act, who requested it (actorKeyOf), the member, the amount, the confirming operator, when
 * @returns when written
 * @example
 * await recordPolicyUse(tx, { act: 'grant', operator: actorKeyOf(actor), memberId, amount, now });
 */
export async function recordPolicyUse(
  tx: Db,
  use: { act: PolicyAct; operator: string; memberId?: number | undefined; amount: bigint; confirmedBy?: string | null | undefined; now: Date },
): Promise<void> {
  if (use.amount <= 0n) return;
  await tx.execute(
    sql`INSERT INTO ops_policy_usage (act, operator, member_id, amount, confirmed_by, at)
        VALUES (${use.act}, ${use.operator}, ${use.memberId ?? null}::int, ${use.amount.toString()}::bigint, ${use.confirmedBy ?? null}, ${use.now.toISOString()}::timestamptz)`,
  );
}

/**
 * The rules as the contract shows them (opsPolicy, the desk's Policy screen): amounts as decimal strings.
 *
 * @param policy - the server's policy
 * @returns one row per rule, in order
 * @example
 * const { rules } = policyView(deps.policy);
 */
export function policyView(policy: OperatorsPolicy) {
  const amount = (value: bigint | null | undefined) => (value === null || value === undefined ? null : formatMinor(value));
  return {
    rules: policy.rules.map((rule) => ({
      act: rule.act,
      roles: [...rule.roles],
      // 'never': nothing alone, shown as zero.
      ...(rule.alone === 'never'
        ? { alonePerAct: '0', aloneOperatorDay: '0', aloneMemberDay: null }
        : { alonePerAct: amount(rule.alone?.perAct), aloneOperatorDay: amount(rule.alone?.operatorDay), aloneMemberDay: amount(rule.alone?.memberDay) }),
      above: rule.above,
      cap: amount(rule.cap),
      notToSelf: rule.notToSelf,
      why: rule.why,
    })),
  };
}
