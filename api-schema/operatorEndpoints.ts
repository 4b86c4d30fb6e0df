import * as opsMoney from './opsMoney';
import * as ops from './ops';
import * as opsTopUps from './opsTopUps';
import * as opsFinance from './opsFinance';
import * as opsContent from './opsContent';
import * as opsMembers from './opsMembers';
import * as opsOrders from './opsOrders';
import * as opsOverview from './opsOverview';
import * as opsPolicy from './opsPolicy';
import type { Endpoint } from './endpoint';

/**
 * The operators' calls (docs/API.md, "Operators"), by name: every path under /api/admin. endpoints.ts lists them
 * after the member app's; the desk's client contract (src/ops/api/opsContract.ts) is these and dappParam.
 */
export const operatorEndpoints = {
  opsGrant: opsMoney.opsGrant,
  opsWithdrawalDecide: opsMoney.opsWithdrawalDecide,
  opsLedger: opsMoney.opsLedger,
  opsDistribute: opsMoney.opsDistribute,
  opsReconcile: opsMoney.opsReconcile,
  opsTopUpsReread: opsMoney.opsTopUpsReread,
  opsAlerts: opsMoney.opsAlerts,
  opsOverview: opsOverview.opsOverview,
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
  opsMembers: opsMembers.opsMembers,
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
  opsPaymentsRecover: opsMoney.opsPaymentsRecover,
  opsUnknownPaymentSettle: opsMoney.opsUnknownPaymentSettle,
  opsPayoutsResume: opsMoney.opsPayoutsResume,
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
} satisfies Record<string, Endpoint>;
