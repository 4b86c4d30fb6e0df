import * as z from 'zod/mini';
import { amountSchema, balanceSchema, requestIdSchema } from './primitives';
import { defineEndpoint } from './endpoint';
import { assetSchema } from './opsMoney';
import { dappParamSchema } from './dapp';

/**
 * The operators' policy (docs/API.md, "Operators: the policy"): the rules every act that creates or moves value
 * passes, read-only, and the funding of the accounts that pay only what was put in. Not part of the SPA.
 */

const policyAmountSchema = z.nullable(balanceSchema);

export const policyRuleSchema = z.object({
  act: z.enum(['grant', 'deduct', 'withdrawalApprove', 'topUpRelease', 'orderRefund', 'fund', 'poolAmount', 'distribute', 'topUpsReread', 'paymentsRecover', 'unknownPaymentSettle', 'payoutsResume', 'moneySettings']),
  roles: z.array(z.enum(['finance', 'support', 'content', 'admin'])),
  /** What one operator may move alone per act; null: the act moves no amount of its own choosing; '0' (with a null member day): never alone. */
  alonePerAct: policyAmountSchema,
  /** ... and in 24 hours in all, per operator. */
  aloneOperatorDay: policyAmountSchema,
  /** ... and in 24 hours to (or from) one member. */
  aloneMemberDay: policyAmountSchema,
  /** Above what one may do alone: a second operator confirms, or it is refused (3009). */
  above: z.enum(['confirm', 'refuse']),
  /** Refused above this per act, whoever confirms (3009); null: no cap. */
  cap: policyAmountSchema,
  /** Never to the operator's own member address, nor confirmed by its requester (1007). */
  notToSelf: z.boolean(),
  why: z.string(),
});

export const opsPolicy = defineEndpoint({
  method: 'GET',
  path: '/api/admin/policy',
  access: 'operator',
  summary: "The operators' policy, rule by rule in the order they are read; any operator may read it (added)",
  query: undefined,
  body: undefined,
  result: z.object({ rules: z.array(policyRuleSchema) }),
});

/** The system accounts finance funds: the share pools' WPOS and the exchange's CREDIT. */
export const fundedAccountSchema = z.enum(['sharePools', 'exchangeCredit']);

export const opsFund = defineEndpoint({
  method: 'POST',
  path: '/api/admin/fund',
  access: 'operator:finance',
  summary:
    "Fund the share pools' WPOS or the exchange's CREDIT from issuance: what the pools pay out and WPOS exchanges back to CREDIT come only from there. " +
    'Under the policy (act fund: alone within its amounts, else 3009); at most once per requestId of the operator (added)',
  query: undefined,
  body: z.strictObject({ account: fundedAccountSchema, amount: amountSchema, requestId: requestIdSchema }),
  result: z.object({ id: z.string(), account: fundedAccountSchema, asset: assetSchema, amount: amountSchema, balance: balanceSchema }),
});

/**
 * The money parameters members see in dappParam and the ledger applies (docs/API.md, "Operators: money settings"):
 * what finance changes on the desk, with a second finance operator (the policy's `moneySettings`: never alone).
 */
// dappParam's own fields (withdrawFee a fixed fee below minWithdraw, exchangeRate CREDIT per 1 WPOS), so the two never differ.
export const moneySettingsSchema = z.pick(dappParamSchema, { minWithdraw: true, maxWithdraw: true, withdrawFee: true, dailyWithdrawCap: true, exchangeRate: true, minTransfer: true });

/** The six fields, in the order the desk shows them and the server compares them. */
export const moneySettingFields = Object.keys(moneySettingsSchema.shape) as (keyof z.infer<typeof moneySettingsSchema>)[];

const pendingSettingsSchema = z.object({ values: moneySettingsSchema, requestedBy: z.string() });

export const opsMoneySettings = defineEndpoint({
  method: 'GET',
  path: '/api/admin/config/money',
  access: 'operator:finance',
  summary: 'The money parameters in force, and a change one finance operator asked for that waits for a second (added)',
  query: undefined,
  body: undefined,
  result: z.object({ current: moneySettingsSchema, pending: z.nullable(pendingSettingsSchema) }),
});

export const opsMoneySettingsPut = defineEndpoint({
  method: 'POST',
  path: '/api/admin/config/money',
  access: 'operator:finance',
  summary:
    "Change the money parameters: the first finance operator's call is recorded and waits, a second, different one asking for the same values applies them " +
    "(the policy's moneySettings: never alone); other values while one waits are 3006; inconsistent values 1001; at most once per requestId of the operator (added)",
  query: undefined,
  body: z.strictObject({ ...moneySettingsSchema.shape, requestId: requestIdSchema }),
  result: z.object({ applied: z.boolean(), waitsForSecondApproval: z.boolean(), approvals: z.array(z.string()), current: moneySettingsSchema }),
});
