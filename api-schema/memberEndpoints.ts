import * as auth from './auth';
import * as member from './member';
import * as wpos from './wpos';
import * as dapp from './dapp';
import * as buy from './buy';
import type { Endpoint } from './endpoint';

/**
 * The member app's calls: every call of endpoints.ts that is not an operator's (nor the desk's sign-in). The app's client contract
 * (clientContract.ts) carries these only, so a member never downloads an operator call's schemas (the
 * desk's calls are the desk's bundle's, src/ops/api/opsContract.ts). tests/api-schema/memberEndpoints.test.ts checks this
 * list against endpoints.ts.
 */
export const memberEndpoints = {
  loginNonce: auth.loginNonce,
  memberSignLogin: auth.memberSignLogin,
  bindRecommendRelation: auth.bindRecommendRelation,
  logout: auth.logout,
  meInfo: member.meInfo,
  creditRecord: member.creditRecord,
  withdrawCredit: member.withdrawCredit,
  topUp: member.topUp,
  team: member.team,
  teamSearch: member.teamSearch,
  wposProfit: wpos.wposProfit,
  wposRecord: wpos.wposRecord,
  getRentValidBindMemberAddress: wpos.getRentValidBindMemberAddress,
  transferWpos: wpos.transferWpos,
  flashExchange: wpos.flashExchange,
  getSharePools: wpos.getSharePools,
  dappParam: dapp.dappParam,
  queryPagePlatformNotice: dapp.queryPagePlatformNotice,
  noticeDetail: dapp.noticeDetail,
  aboutOur: dapp.aboutOur,
  solbotList: dapp.solbotList,
  goodsList: buy.goodsList,
  goodsDetail: buy.goodsDetail,
  deliveryList: buy.deliveryList,
  deliveryAdd: buy.deliveryAdd,
  deliveryEdit: buy.deliveryEdit,
  deliveryDelete: buy.deliveryDelete,
  orderSettle: buy.orderSettle,
  orderList: buy.orderList,
} satisfies Record<string, Endpoint>;

export type MemberEndpoints = typeof memberEndpoints;
export type MemberEndpointName = keyof MemberEndpoints;
