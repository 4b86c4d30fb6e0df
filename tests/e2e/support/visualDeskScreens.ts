import { deskScreens as screenTable } from '../../../src/ops/deskScreens';

/**
 * The operators' desk's screens for the visual check (tests/e2e/support/visualDesk.ts) and the atlas' shots
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
    total: 2,
  },
};

/** Orders to ship as long as they get: a long goods name, a large amount, an address across three lines. */
const delivery = { name: '欧阳娜娜', phone: '138 0013 8000', region: '新疆维吾尔自治区 / 伊犁哈萨克自治州 / 霍尔果斯市', detail: '亚欧南路 1888 号国际商贸城 12 栋 2 单元 1203 室', isDefault: true };
const ordersPage = {
  code: 0,
  result: {
    list: [
      {
        id: '123456',
        address: seededMember,
        goods: { id: 'tea-gift', name: { zh: '武夷山大红袍特级礼盒装 500 克（双罐）', en: 'Wuyi Da Hong Pao premium gift box, 500 g (two tins)' }, image: '/goods/tea.webp' },
        quantity: 12,
        amount: '1234567.5',
        status: 'paid',
        delivery: { ...delivery, deliveryId: 'd-1' },
        createdAt: lateUtc,
      },
      {
        id: '123455',
        address: seededMember,
        goods: { id: 'cup', name: { zh: '保温杯', en: 'Travel mug' }, image: '/goods/cup.webp' },
        quantity: 1,
        amount: '50',
        status: 'paid',
        delivery: { ...delivery, detail: '文三路 100 号', deliveryId: 'd-2' },
        createdAt: lateUtc,
      },
    ],
    nextCursor: '123455',
    total: 3,
  },
};

/** Operator changes waiting for a second admin: another admin's (with Confirm) and the demo operator's own. */
const otherAdmin = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
const waitingChange = { requestedAt: lateUtc, status: 'waiting', confirmedBy: null, confirmedAt: null, cancelledAt: null };
const operatorChanges = {
  code: 0,
  result: {
    changes: [
      { ...waitingChange, id: '123456', kind: 'put', address: seededMember, roles: ['finance', 'support', 'content'], requestedBy: otherAdmin },
      { ...waitingChange, id: '123457', kind: 'remove', address: otherAdmin, roles: null, requestedBy: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' },
    ],
  },
};

/** Every desk screen an admin sees (src/ops/deskScreens.ts' table, each at least once), the sign-in first. */
export const deskScreens: readonly DeskScreen[] = [
  { name: 'ops-overview', path: '/ops/overview' },
  { name: 'ops-withdrawals', path: '/ops/withdrawals' },
  { name: 'ops-withdrawal', path: '/ops/withdrawals?status=pending&id=123456', answered: { '/api/admin/withdrawals': withdrawalsPage } },
  { name: 'ops-top-ups', path: '/ops/top-ups' },
  { name: 'ops-reconcile', path: '/ops/reconcile' },
  { name: 'ops-members', path: '/ops/members' },
  { name: 'ops-member', path: '/ops/members?q=DEMO2026' },
  { name: 'ops-orders', path: '/ops/orders', answered: { '/api/admin/orders': ordersPage } },
  { name: 'ops-notices', path: '/ops/content?tab=notices&new=1' },
  { name: 'ops-notice', path: '/ops/content?tab=notices&notice=welcome' },
  { name: 'ops-about', path: '/ops/content?tab=about' },
  { name: 'ops-goods', path: '/ops/content?tab=goods' },
  { name: 'ops-pools', path: '/ops/content?tab=pools' },
  { name: 'ops-bots', path: '/ops/content?tab=bots' },
  { name: 'ops-keys', path: '/ops/keys' },
  { name: 'ops-operators', path: '/ops/operators', answered: { '/api/admin/operators/changes': operatorChanges } },
  { name: 'ops-audit', path: '/ops/audit' },
];

// A screen added to the table without a shot here fails every run that reads this list.
for (const { path } of screenTable) {
  if (!deskScreens.some((shot) => shot.path.split('?')[0] === path)) throw new Error(`${path} (src/ops/deskScreens.ts) has no shot in tests/e2e/support/visualDeskScreens.ts`);
}
