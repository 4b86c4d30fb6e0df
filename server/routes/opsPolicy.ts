/**
 * The operators' policy routes (docs/API.md, "Operators: the policy"): the rules, read-only for every operator, the
 * money settings finance changes with a second operator (server/config/moneySettings.ts), and finance's funding of the accounts that pay only what was put in (the share pools' WPOS, the exchange's CREDIT),
 * from issuance, under the policy, at most once per request id of the operator, with its audit row in its
 * transaction.
 */
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import { endpoints } from '../../api-schema/endpoints';
import { bigintText, queryRows } from '../db/client';
import { FUNDED_ACCOUNTS, systemAccountId } from '../ledger/accounts';
import { postRequests } from '../ledger/engine';
import { fundingRequest } from '../ledger/funding';
import { errorOfApiCode } from '../errors';
import { requireOperator } from '../ops/actor';
import { runOperatorAct } from '../ops/operatorAct';
import { actorKeyOf, decidePolicy, policyView, recordPolicyUse } from '../ops/policy';
import { changeMoneySettings, moneySettingsView } from '../config/moneySettings';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

const balanceRow = z.object({ balance: bigintText, transferId: bigintText });

/**
 * The policy routes.
 *
 * @param app - plugin scope
 * @param deps - database, clock, policy
 * @returns when registered
 * @example
 * await app.register(opsPolicyRoutes, deps);
 */
export const opsPolicyRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  registerHandlers(app, {
    opsPolicy: async () => policyView(deps.policy),

    opsMoneySettings: async () => moneySettingsView(deps.db),

    opsMoneySettingsPut: async ({ body, request }) => {
      const { requestId, ...values } = body;
      const actor = requireOperator(request);
      const now = deps.now();
      const act = { action: 'opsMoneySettingsPut', requestId, body: values, now };
      return runOperatorAct(deps.db, request, act, endpoints.opsMoneySettingsPut.result, async (tx) => {
        const outcome = await changeMoneySettings(tx, deps.policy, { values, actor, now });
        const result = { applied: outcome.applied, waitsForSecondApproval: outcome.waitsForSecondApproval, approvals: outcome.approvals, current: outcome.current };
        const audit = outcome.changed ? { target: 'moneySettings', before: outcome.before, after: { asked: outcome.asked, applied: outcome.applied, approvals: outcome.approvals } } : null;
        return { result, audit };
      });
    },

    opsFund: async ({ body, request }) => {
      const amount = toMinor(body.amount);
      const now = deps.now();
      const actor = requireOperator(request);
      const { asset, kind } = FUNDED_ACCOUNTS[body.account];
      const account = systemAccountId(asset, kind);
      const act = { action: 'opsFund', requestId: body.requestId, body: { account: body.account, amount: formatMinor(amount) }, now };
      return runOperatorAct(deps.db, request, act, endpoints.opsFund.result, async (tx) => {
        await decidePolicy(tx, deps.policy, { act: 'fund', actor, amount }, now);
        const [outcome] = await postRequests(tx, [fundingRequest(body.account, amount, now)]);
        if (outcome?.code !== ApiCode.ok) throw errorOfApiCode((outcome?.code ?? ApiCode.internal) as ApiCodeValue);
        await recordPolicyUse(tx, { act: 'fund', operator: actorKeyOf(actor), amount, now });
        // The transfer just written (the engine's "$transfer" names a member entry's, and this one has none): the
        // account's row stays locked until the act commits, so no other funding of it comes between.
        const [row] = await queryRows(
          tx,
          sql`SELECT a.balance, (SELECT max(t.id) FROM ledger_transfers t WHERE t.credit_account_id = a.id AND t.type = 'funding') AS "transferId"
              FROM ledger_accounts a WHERE a.id = ${account}::int`,
          balanceRow,
        );
        const result = { id: String(row?.transferId ?? ''), account: body.account, asset, amount: formatMinor(amount), balance: formatMinor(row?.balance ?? 0n) };
        return { result, audit: { target: body.account, after: result } };
      });
    },
  });
};
