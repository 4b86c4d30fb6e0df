import * as admin from './admin';
import * as ops from './ops';
import * as opsTopUps from './opsTopUps';
import * as opsFinance from './opsFinance';
import * as opsContent from './opsContent';
import * as opsOrders from './opsOrders';
import * as opsPolicy from './opsPolicy';
import * as health from './health';
import type { Endpoint } from './endpoint';
import { memberEndpoints } from './memberEndpoints';

/** Every call of docs/API.md, by name. The server registers these; the client calls them; openapi.json lists them. */
export const endpoints = {
  // The member app's calls (its client contract carries these only), then the operators'.
  ...memberEndpoints,
  adminGrant: admin.adminGrant,
  adminWithdrawalDecide: admin.adminWithdrawalDecide,
  adminLedger: admin.adminLedger,
  adminDistribute: admin.adminDistribute,
  adminReconcile: admin.adminReconcile,
  adminTopUpsReread: admin.adminTopUpsReread,
  opsAlerts: admin.opsAlerts,
  opsLoginNonce: ops.opsLoginNonce,
  opsSignIn: ops.opsSignIn,
  opsMe: ops.opsMe,
  opsLogout: ops.opsLogout,
  opsOperators: ops.opsOperators,
  opsOperatorPut: ops.opsOperatorPut,
  opsOperatorRemove: ops.opsOperatorRemove,
  opsOperatorChanges: ops.opsOperatorChanges,
  opsOperatorConfirm: ops.opsOperatorConfirm,
  opsOperatorCancel: ops.opsOperatorCancel,
  opsKeys: ops.opsKeys,
  opsKeyCreate: ops.opsKeyCreate,
  opsKeyRevoke: ops.opsKeyRevoke,
  opsAudit: ops.opsAudit,
  opsHeldTopUps: opsTopUps.opsHeldTopUps,
  opsHeldTopUpRelease: opsTopUps.opsHeldTopUpRelease,
  opsHeldTopUpReturn: opsTopUps.opsHeldTopUpReturn,
  opsWithdrawals: opsFinance.opsWithdrawals,
  opsWithdrawalsApprove: opsFinance.opsWithdrawalsApprove,
  opsMember: opsFinance.opsMember,
  opsMemberSignOut: opsFinance.opsMemberSignOut,
  opsMemberFreeze: opsFinance.opsMemberFreeze,
  opsAdjust: opsFinance.opsAdjust,
  opsAdjustConfirm: opsFinance.opsAdjustConfirm,
  opsAdjustmentsPending: opsFinance.opsAdjustmentsPending,
  opsPolicy: opsPolicy.opsPolicy,
  opsFund: opsPolicy.opsFund,
  opsMoneySettings: opsPolicy.opsMoneySettings,
  opsMoneySettingsPut: opsPolicy.opsMoneySettingsPut,
  opsPaymentsRecover: admin.opsPaymentsRecover,
  opsUnknownPaymentSettle: admin.opsUnknownPaymentSettle,
  opsPayoutsResume: admin.opsPayoutsResume,
  opsNotices: opsContent.opsNotices,
  opsNoticePut: opsContent.opsNoticePut,
  opsNoticePublish: opsContent.opsNoticePublish,
  opsAbout: opsContent.opsAbout,
  opsAboutPut: opsContent.opsAboutPut,
  opsGoods: opsContent.opsGoods,
  opsGoodsPut: opsContent.opsGoodsPut,
  opsPools: opsContent.opsPools,
  opsPoolPut: opsContent.opsPoolPut,
  opsBots: opsContent.opsBots,
  opsBotPut: opsContent.opsBotPut,
  opsOrders: opsOrders.opsOrders,
  opsOrderShip: opsOrders.opsOrderShip,
  opsOrderCancel: opsOrders.opsOrderCancel,
  // A load balancer's and an orchestrator's (docs/API.md, "Health"): no client calls them.
  healthLive: health.healthLive,
  healthReady: health.healthReady,
} satisfies Record<string, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
