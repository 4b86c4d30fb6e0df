/**
 * The money parameters (docs/API.md, "Operators: money settings"): the minimum and maximum withdrawal, its fee, the
 * daily cap, the exchange rate and the minimum transfer live in the app config row, which dappParam announces and
 * the ledger reads at each batch. Finance changes them on the desk under the policy's `moneySettings` (never alone):
 * the first operator's call records the values asked for (ops_approvals, the values as its subject), a second,
 * different operator asking for the same values applies them in the act's transaction. The approvals' target names
 * the settings in force, so once a change is applied the next one starts afresh.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { z } from 'zod/mini';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { moneySettingFields, type moneySettingsSchema } from '../../api-schema/opsPolicy';
import type { Db } from '../db/client';
import { InvalidParametersError } from '../errors';
import type { OperatorActor } from '../ops/actor';
import type { OperatorsPolicy } from '../ops/policy';
import { approvalsOf, decideWithSecondApproval } from '../ops/secondApprovals';
import { getAppConfig, patchAppConfig } from './appConfig';

export type MoneySettings = z.infer<typeof moneySettingsSchema>;

/** The values in one canonical form (each amount as formatMinor writes it, fields in order): what approvals compare. */
function canonical(settings: MoneySettings): MoneySettings {
  const out = {} as MoneySettings;
  for (const field of moneySettingFields) out[field] = formatMinor(toMinor(settings[field]));
  return out;
}

const targetOf = (current: MoneySettings): string => `moneySettings:${createHash('sha256').update(JSON.stringify(canonical(current))).digest('hex').slice(0, 16)}`;

/**
 * The settings in force.
 *
 * @param db - database handle
 * @returns the six values
 * @example
 * const { minWithdraw } = await currentMoneySettings(db);
 */
export async function currentMoneySettings(db: Db): Promise<MoneySettings> {
  return canonical(await getAppConfig(db));
}

/**
 * The settings in force and the change waiting for a second operator, if any (current operators' approvals only).
 *
 * @param db - database handle
 * @returns current and pending
 * @example
 * const { pending } = await moneySettingsView(db);
 */
export async function moneySettingsView(db: Db): Promise<{ current: MoneySettings; pending: { values: MoneySettings; requestedBy: string } | null }> {
  const current = await currentMoneySettings(db);
  const [first] = await approvalsOf(db, 'moneySettings', targetOf(current));
  return { current, pending: first ? { values: JSON.parse(first.subject) as MoneySettings, requestedBy: first.operator } : null };
}

/** Values that cannot stand together: 1001 naming the field. */
function checkConsistent(settings: MoneySettings): void {
  const value = (field: keyof MoneySettings) => toMinor(settings[field]);
  if (value('maxWithdraw') < value('minWithdraw')) throw new InvalidParametersError('maxWithdraw: at least minWithdraw');
  if (value('withdrawFee') >= value('minWithdraw')) throw new InvalidParametersError('withdrawFee: below minWithdraw');
  if (value('dailyWithdrawCap') < value('minWithdraw')) throw new InvalidParametersError('dailyWithdrawCap: at least minWithdraw');
}

/**
 * A finance operator's call to change the settings, in the act's transaction.
 *
 * @param tx - the act's transaction
 * @param policy - the server's policy
 * @param input - the values asked for, the operator, when
 * @returns whether they were applied now, the approvals so far, the settings in force after the call
 * @throws InvalidParametersError (1001), RoleRequiredError (1006), SelfActRefusedError (1007), AlreadyDecidedError
 *   (3006: other values wait for a second operator)
 * @example
 * const outcome = await changeMoneySettings(tx, deps.policy, { values, actor, now });
 */
export async function changeMoneySettings(tx: Db, policy: OperatorsPolicy, input: { values: MoneySettings; actor: Pick<OperatorActor, 'address' | 'roles'>; now: Date }) {
  const values = canonical(input.values);
  checkConsistent(values);
  // The row's lock: two operators' calls at once are decided one after the other.
  await tx.execute(sql`SELECT id FROM app_config WHERE id = 1 FOR UPDATE`);
  const before = await currentMoneySettings(tx);
  const decision = await decideWithSecondApproval(tx, policy, { check: { act: 'moneySettings', actor: input.actor, amount: 0n }, target: targetOf(before), subject: JSON.stringify(values), now: input.now });
  if (decision.proceed) await patchAppConfig(tx, values);
  const current = decision.proceed ? values : before;
  return { applied: decision.proceed, waitsForSecondApproval: !decision.proceed, approvals: decision.approvals, asked: values, current, before, changed: decision.changed };
}
