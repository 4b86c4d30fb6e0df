/**
 * The desk's machines' test models: each machine's input and every event it may get, answers included, for the
 * generated path tests (tests/machines/ops*.paths.test.ts), the diagrams (scripts/diagrams.ts) and the atlas. Data
 * only: nothing here runs.
 */
import { heldTopUpMachine } from '../../machines/ops/heldTopUpMachine';
import type { DecidableTopUp } from '../../machines/ops/heldTopUpMachine';
import { noticePublicationEntry } from './noticePublication.model';
import { formOfRequest, noAnswer, opsActionMachine } from '../../machines/ops/opsActionMachine';
import { opsSessionMachine } from '../../machines/ops/opsSessionMachine';
import { orderShippingMachine } from '../../machines/ops/orderShippingMachine';
import type { ShippableOrder } from '../../machines/ops/orderShippingMachine';
import type { Operator } from '../../machines/ops/opsSessionMachine';
import { withdrawalBulkApprovalMachine } from '../../machines/ops/withdrawalBulkApprovalMachine';
import { withdrawalDecisionMachine } from '../../machines/ops/withdrawalDecisionMachine';
import type { DecidableWithdrawal } from '../../machines/ops/withdrawalDecisionMachine';
import type { MachineModel, ModelEvent } from './modelPaths';
import type { MachineEntry } from './modelPaths';

export const financeOperator: Operator = { address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', roles: ['finance'] };
export const secondOperator = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
const otherAccount = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc';
/** The request id the screen makes when the operator confirms (crypto.randomUUID()). */
export const opsRequestId = '8e2b1c4d-5a6f-4b7c-9d8e-0f1a2b3c4d5e';

const ok = <T>(result: T) => ({ code: 0, result });
const refused = (code: number) => ({ code, result: null });
const done = (id: string, output: unknown): ModelEvent => ({ type: `xstate.done.actor.${id}`, output });
const thrown = (id: string, name = 'TypeError'): ModelEvent => ({ type: `xstate.error.actor.${id}`, error: { name } });

export const opsNonce = { nonce: 'Op5xv9Lm2Pz8Rt4W', issuedAt: '2026-11-27T10:00:00.000Z', expirationTime: '2026-11-27T10:05:00.000Z' };

const sessionEvents: ModelEvent[] = [
  { type: 'user.signIn', address: financeOperator.address, chainId: 56 },
  { type: 'user.cancel' },
  { type: 'user.signOut' },
  { type: 'user.retry' },
  { type: 'wallet.accountChanged', address: financeOperator.address.toLowerCase() },
  { type: 'wallet.accountChanged', address: otherAccount },
  { type: 'wallet.disconnected' },
  { type: 'server.tokenExpired' },
  done('fetchNonce', ok(opsNonce)),
  done('fetchNonce', refused(4290)),
  thrown('fetchNonce'),
  done('signMessage', { message: 'siwe message', signature: '0xsig' }),
  thrown('signMessage', 'UserRejectedError'),
  done('signIn', ok({ expiresAt: '2026-11-28T10:00:00.000Z', operator: financeOperator, csrfToken: 'ops-csrf' })),
  done('signIn', refused(1005)),
  thrown('signIn'),
  done('loadOperator', ok({ operator: financeOperator, csrfToken: 'ops-csrf' })),
  done('loadOperator', refused(1002)),
  done('loadOperator', refused(-1)),
  thrown('loadOperator'),
  done('revokeToken', ok(null)),
  thrown('revokeToken'),
];

export const opsSessionModels: MachineModel[] = [{ name: 'opsSession', machine: opsSessionMachine, events: sessionEvents }];

/** A pending withdrawal above the quorum threshold: two approvers needed. */
export const largeWithdrawal: DecidableWithdrawal = { id: '41', status: 'pending', approvals: [], approvalsNeeded: 2 };

const decisionEvents: ModelEvent[] = [
  { type: 'user.choose', act: 'approve' },
  { type: 'user.choose', act: 'fail' },
  { type: 'field.change', field: 'reason', value: 'the member asked to cancel' },
  { type: 'field.change', field: 'reason', value: '  ' },
  { type: 'user.confirm', requestId: opsRequestId },
  { type: 'user.retry' },
  { type: 'user.cancel' },
  done('decide', ok({ id: '41', status: 'pending', approvals: [{ address: financeOperator.address }], waitsForSecondApproval: true })),
  done('decide', ok({ id: '41', status: 'approved', approvals: [{ address: secondOperator }, { address: financeOperator.address }] })),
  done('decide', ok({ id: '41', status: 'failed' })),
  done('decide', refused(3006)),
  done('decide', refused(3008)),
  thrown('decide'),
];

export const withdrawalDecisionModels: MachineModel[] = [
  { name: 'withdrawalDecision', machine: withdrawalDecisionMachine, input: { subject: largeWithdrawal, operator: financeOperator.address }, events: decisionEvents },
  {
    name: 'withdrawalDecision (approved by this operator)',
    machine: withdrawalDecisionMachine,
    input: { subject: { ...largeWithdrawal, approvals: [{ address: financeOperator.address.toLowerCase() }] }, operator: financeOperator.address },
    events: decisionEvents,
  },
  {
    name: 'withdrawalDecision (paid)',
    machine: withdrawalDecisionMachine,
    input: { subject: { ...largeWithdrawal, status: 'paid' }, operator: financeOperator.address },
    events: decisionEvents,
  },
];

export const heldTopUp: DecidableTopUp = {
  txHash: '0x8f3c2a1b4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8',
  logPosition: 0,
  state: 'held',
  reorged: false,
};

const topUpEvents: ModelEvent[] = [
  { type: 'user.choose', act: 'release' },
  { type: 'user.choose', act: 'return' },
  { type: 'field.change', field: 'address', value: '0x12' },
  { type: 'field.change', field: 'address', value: secondOperator },
  { type: 'user.confirm', requestId: opsRequestId },
  { type: 'user.retry' },
  { type: 'user.cancel' },
  done('decide', ok({ ...heldTopUp, state: 'released', releasedTo: secondOperator })),
  done('decide', ok({ ...heldTopUp, state: 'returning' })),
  done('decide', refused(4004)),
  done('decide', refused(3006)),
  thrown('decide'),
];

export const heldTopUpModels: MachineModel[] = [
  { name: 'heldTopUp', machine: heldTopUpMachine, input: { subject: heldTopUp, operator: financeOperator.address }, events: topUpEvents },
  { name: 'heldTopUp (reorganised)', machine: heldTopUpMachine, input: { subject: { ...heldTopUp, reorged: true }, operator: financeOperator.address }, events: topUpEvents },
];

/** A paid order, to ship. */
export const paidOrder: ShippableOrder = { id: '1207', status: 'paid' };

const orderEvents: ModelEvent[] = [
  { type: 'user.choose', act: 'ship' },
  { type: 'user.choose', act: 'refund' },
  { type: 'field.change', field: 'carrier', value: '顺丰速运' },
  { type: 'field.change', field: 'trackingNumber', value: 'SF1234567890' },
  { type: 'field.change', field: 'trackingNumber', value: 'no' },
  { type: 'field.change', field: 'reason', value: 'the goods are out of stock at the warehouse' },
  { type: 'field.change', field: 'reason', value: '  ' },
  { type: 'user.confirm', requestId: opsRequestId },
  { type: 'user.retry' },
  { type: 'user.cancel' },
  done('decide', ok({ ...paidOrder, status: 'shipped', carrier: '顺丰速运', trackingNumber: 'SF1234567890' })),
  done('decide', ok({ ...paidOrder, status: 'cancelled', cancelReason: 'the goods are out of stock at the warehouse' })),
  done('decide', refused(3006)),
  thrown('decide'),
];

export const orderShippingModels: MachineModel[] = [{ name: 'orderShipping', machine: orderShippingMachine, input: { subject: paidOrder, operator: financeOperator.address }, events: orderEvents }];

const bulkEvents: ModelEvent[] = [
  { type: 'user.choose', act: 'approve' },
  { type: 'field.change', field: 'ids', value: '42 41' },
  { type: 'field.change', field: 'ids', value: '' },
  { type: 'user.confirm', requestId: opsRequestId },
  { type: 'user.retry' },
  { type: 'user.cancel' },
  done('decide', ok({ results: [{ id: '42', code: 0, waitsForSecondApproval: false }, { id: '41', code: 0, waitsForSecondApproval: true }] })),
  done('decide', ok({ results: [{ id: '42', code: 3006 }] })),
  done('decide', refused(1006)),
  thrown('decide'),
];

export const withdrawalBulkApprovalModels: MachineModel[] = [
  { name: 'withdrawalBulkApproval', machine: withdrawalBulkApprovalMachine, input: { subject: { mayApprove: true, results: null }, operator: financeOperator.address }, events: bulkEvents },
  {
    name: 'withdrawalBulkApproval (no finance role)',
    machine: withdrawalBulkApprovalMachine,
    input: { subject: { mayApprove: false, results: null }, operator: financeOperator.address },
    events: bulkEvents,
  },
];

export const opsActionModel: MachineModel = {
  name: 'opsAction',
  machine: opsActionMachine,
  input: { subject: noAnswer, operator: financeOperator.address },
  events: [
    { type: 'user.choose', act: 'run', form: formOfRequest({ ids: ['41', '42'] }) },
    // The skeleton's field change: an act's screen fills its form at once, but the machine takes a field as any does.
    { type: 'field.change', field: 'request', value: formOfRequest({ ids: ['41'] }).request ?? '' },
    { type: 'user.confirm', requestId: opsRequestId },
    { type: 'user.retry' },
    { type: 'user.cancel' },
    done('decide', ok({ results: [] })),
    done('decide', refused(1006)),
    thrown('decide'),
  ],
};

/** The desk's machines for the diagrams index, after the member's (models.ts lists them). */
export const opsMachineEntries: MachineEntry[] = [
  {
    name: 'opsSession',
    source: 'machines/ops/opsSessionMachine.ts',
    summary: "The operators' desk's sign-in: the desk's own SIWE statement, the session in an HttpOnly cookie asked for at start, the roles, sign-out.",
    models: opsSessionModels,
  },
  {
    name: 'withdrawalDecision',
    source: 'machines/ops/withdrawalDecisionMachine.ts',
    summary: 'An operator approves a withdrawal (a second, different approver above the quorum threshold) or fails it with a reason.',
    models: withdrawalDecisionModels,
  },
  {
    name: 'withdrawalBulkApproval',
    source: 'machines/ops/withdrawalBulkApprovalMachine.ts',
    summary: 'An operator approves the ticked withdrawals (or the focused one) at once after confirming how many; each by the quorum rules, one answer per withdrawal.',
    models: withdrawalBulkApprovalModels,
  },
  {
    name: 'heldTopUp',
    source: 'machines/ops/heldTopUpMachine.ts',
    summary: 'A held top-up released to a member or returned on chain to its sender, once, one request id for every retry.',
    models: heldTopUpModels,
  },
  {
    name: 'orderShipping',
    source: 'machines/ops/orderShippingMachine.ts',
    summary: 'A paid order shipped with its carrier and tracking number, or cancelled with a reason and refunded once (one request id for every retry).',
    models: orderShippingModels,
  },
  noticePublicationEntry,
  {
    name: 'opsAction',
    source: 'machines/ops/opsActionMachine.ts',
    summary: 'One act of the desk on no item, an instance of the decision skeleton (sign-out everywhere, freeze, grant, keys): the request sent whole, the same request on retry, the answer kept until put away.',
    models: [opsActionModel],
  },
];
