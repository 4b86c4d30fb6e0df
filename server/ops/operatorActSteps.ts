/** Where a fault test may stop an operator's act (OPS_FAULT_AT; server/ops/operatorAct.ts). */
export const OPERATOR_ACT_STEPS = ['beforeAudit'] as const;
export type OperatorActStep = (typeof OPERATOR_ACT_STEPS)[number];
