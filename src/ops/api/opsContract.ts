/**
 * The calls the desk makes, by name, with their schemas (api-schema: ops.ts, opsFinance.ts, opsTopUps.ts, opsContent.ts,
 * opsOrders.ts and the operator calls of admin.ts). Only the desk's bundle imports this: the member app never loads an
 * operator schema.
 */
import type * as z from 'zod/mini';
import { adminReconcile, adminTopUpsReread, adminWithdrawalDecide, opsAlerts, opsPaymentsRecover, opsPayoutsResume, opsUnknownPaymentSettle } from '../../../api-schema/admin';
import {
  opsAudit,
  opsKeyCreate,
  opsKeyRevoke,
  opsKeys,
  opsLoginNonce,
  opsLogout,
  opsMe,
  opsOperatorCancel,
  opsOperatorChanges,
  opsOperatorConfirm,
  opsOperatorPut,
  opsOperatorRemove,
  opsOperators,
  opsSignIn,
} from '../../../api-schema/ops';
import { opsAdjust, opsAdjustConfirm, opsAdjustmentsPending, opsMember, opsMemberFreeze, opsMemberSignOut, opsWithdrawals, opsWithdrawalsApprove } from '../../../api-schema/opsFinance';
import { opsHeldTopUpRelease, opsHeldTopUpReturn, opsHeldTopUps } from '../../../api-schema/opsTopUps';
import { opsOrderCancel, opsOrderShip, opsOrders } from '../../../api-schema/opsOrders';
import { opsAbout, opsAboutPut, opsBotPut, opsBots, opsGoods, opsGoodsPut, opsNoticePublish, opsNoticePut, opsNotices, opsPoolPut, opsPools } from '../../../api-schema/opsContent';
import { opsMoneySettings, opsMoneySettingsPut, opsPolicy } from '../../../api-schema/opsPolicy';
import { dappParam } from '../../../api-schema/dapp';

export const opsEndpoints = {
  dappParam,
  opsLoginNonce,
  opsSignIn,
  opsMe,
  opsLogout,
  opsOperators,
  opsOperatorPut,
  opsOperatorRemove,
  opsOperatorChanges,
  opsOperatorConfirm,
  opsOperatorCancel,
  opsKeys,
  opsKeyCreate,
  opsKeyRevoke,
  opsAudit,
  opsWithdrawals,
  opsWithdrawalsApprove,
  adminWithdrawalDecide,
  opsMember,
  opsMemberSignOut,
  opsMemberFreeze,
  opsAdjust,
  opsAdjustConfirm,
  opsAdjustmentsPending,
  opsPolicy,
  opsMoneySettings,
  opsMoneySettingsPut,
  opsHeldTopUps,
  opsHeldTopUpRelease,
  opsHeldTopUpReturn,
  adminReconcile,
  adminTopUpsReread,
  opsPaymentsRecover,
  opsUnknownPaymentSettle,
  opsPayoutsResume,
  opsAlerts,
  opsOrders,
  opsOrderShip,
  opsOrderCancel,
  opsNotices,
  opsNoticePut,
  opsNoticePublish,
  opsAbout,
  opsAboutPut,
  opsGoods,
  opsGoodsPut,
  opsPools,
  opsPoolPut,
  opsBots,
  opsBotPut,
};

export type OpsEndpoints = typeof opsEndpoints;
export type OpsEndpointName = keyof OpsEndpoints;

/** docs/API.md "Envelope": the member client's own schema, one definition for both apps. */
export { envelopeSchema } from '../../../api-schema/configContract';

type InputOf<T> = T extends z.ZodMiniType ? z.input<T> : undefined;
export type OpsResult<TName extends OpsEndpointName> = z.output<OpsEndpoints[TName]['result']>;
export type OpsQuery<TName extends OpsEndpointName> = InputOf<OpsEndpoints[TName]['query']>;
export type OpsBody<TName extends OpsEndpointName> = InputOf<OpsEndpoints[TName]['body']>;
/** A list endpoint's item. */
export type OpsItem<TName extends OpsEndpointName, TField extends string = 'list'> = OpsResult<TName> extends { [K in TField]: readonly (infer TItem)[] } ? TItem : never;
