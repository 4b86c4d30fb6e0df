/**
 * The operators' desk's screens (issue 43) for the visual check (tests/e2e/visual.ops.spec.ts) and the atlas' shots
 * (atlasScreens.ts): where each is, and the calls answered with fixed rows for lists the fresh seed has none of.
 */

/** A desk screen: where it is, and calls answered with fixed rows (for lists the fresh seed has none of). */
export interface DeskScreen {
  name: string;
  path: string;
  answered?: Readonly<Record<string, unknown>>;
}

const lateUtc = '2026-11-22T23:30:00.000Z';
/** The seed's inviter (DEMO2026), so the member beside a withdrawal is found. */
const seededMember = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
/** The queue as wide as it gets: a large amount waiting for its second approver, and one waiting for its first. */
const withdrawalsPage = {
  code: 0,
  result: {
    list: [
      {
        id: '123456',
        address: seededMember,
        amount: '1234567.5',
        fee: '1',
        status: 'pending',
        createdAt: lateUtc,
        decidedAt: null,
        approvals: [{ address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720', approvedAt: lateUtc }],
        approvalsNeeded: 2,
      },
      { id: '123455', address: seededMember, amount: '50', fee: '1', status: 'pending', createdAt: lateUtc, decidedAt: null, approvals: [], approvalsNeeded: 1 },
    ],
    nextCursor: null,
  },
};

/** Every desk screen an admin sees (src/ops/deskPaths.ts), the sign-in first. */
export const deskScreens: readonly DeskScreen[] = [
  { name: 'ops-withdrawals', path: '/ops/withdrawals' },
  { name: 'ops-withdrawal', path: '/ops/withdrawals?status=pending&id=123456', answered: { '/api/admin/withdrawals': withdrawalsPage } },
  { name: 'ops-top-ups', path: '/ops/top-ups' },
  { name: 'ops-reconcile', path: '/ops/reconcile' },
  { name: 'ops-members', path: '/ops/members' },
  { name: 'ops-member', path: '/ops/members?q=DEMO2026' },
  { name: 'ops-keys', path: '/ops/keys' },
  { name: 'ops-operators', path: '/ops/operators' },
  { name: 'ops-audit', path: '/ops/audit' },
];
