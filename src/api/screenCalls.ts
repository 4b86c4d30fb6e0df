/**
 * The calls the screens and flows make, by name: routes and actors call these, never `api.call` with an endpoint
 * name of their own. Each goes through the typed client and answers as the machines read it (toAnswer); their
 * query, body and result types come from api-schema.
 */
import type { Answer } from '../../machines/shared/answer';
import { toAnswer, type BodyOf, type QueryOf, type ResultOf } from './answer';
import type { ApiClient } from './client';

/** A page of the member's direct team (GET /api/member/team). */
export function fetchTeamPage(api: ApiClient, query: QueryOf<'team'>): Promise<Answer<ResultOf<'team'>>> {
  return api.call('team', { query }).then(toAnswer);
}

/** The members of the whole team whose address contains a keyword (GET /api/member/team/search). */
export function searchTeam(api: ApiClient, query: QueryOf<'teamSearch'>): Promise<Answer<ResultOf<'teamSearch'>>> {
  return api.call('teamSearch', { query }).then(toAnswer);
}

/** A page of the member's credit records, optionally of one type (GET /api/member/creditRecord). */
export function fetchCreditRecords(api: ApiClient, query: QueryOf<'creditRecord'>): Promise<Answer<ResultOf<'creditRecord'>>> {
  return api.call('creditRecord', { query }).then(toAnswer);
}

/** A credit withdrawal, at most once per request id (POST /api/member/withdrawCredit). */
export function withdrawCredit(api: ApiClient, body: BodyOf<'withdrawCredit'>): Promise<Answer<ResultOf<'withdrawCredit'>>> {
  return api.call('withdrawCredit', { body }).then(toAnswer);
}

/** A page of the bots (GET /api/dapp/solbotList). */
export function fetchBotPage(api: ApiClient, query: QueryOf<'solbotList'>): Promise<Answer<ResultOf<'solbotList'>>> {
  return api.call('solbotList', { query }).then(toAnswer);
}

/** A page of the announcements in a language (GET /api/dapp/queryPagePlatformNotice). */
export function fetchNoticePage(api: ApiClient, query: QueryOf<'queryPagePlatformNotice'>): Promise<Answer<ResultOf<'queryPagePlatformNotice'>>> {
  return api.call('queryPagePlatformNotice', { query }).then(toAnswer);
}

/** One announcement in a language (GET /api/dapp/noticeDetail). */
export function fetchNotice(api: ApiClient, query: QueryOf<'noticeDetail'>): Promise<Answer<ResultOf<'noticeDetail'>>> {
  return api.call('noticeDetail', { query }).then(toAnswer);
}

/** The about page in a language (GET /api/dapp/aboutOur). */
export function fetchAbout(api: ApiClient, query: QueryOf<'aboutOur'>): Promise<Answer<ResultOf<'aboutOur'>>> {
  return api.call('aboutOur', { query }).then(toAnswer);
}

/** A page of the member's WPOS records, optionally of one type (GET /api/member/wposRecord). */
export function fetchWposRecords(api: ApiClient, query: QueryOf<'wposRecord'>): Promise<Answer<ResultOf<'wposRecord'>>> {
  return api.call('wposRecord', { query }).then(toAnswer);
}

/** A page of the member's share-pool profit, with the totals (GET /api/member/wposProfit). */
export function fetchWposProfit(api: ApiClient, query: QueryOf<'wposProfit'>): Promise<Answer<ResultOf<'wposProfit'>>> {
  return api.call('wposProfit', { query }).then(toAnswer);
}

/** The share pools with the member's share and the next payout (GET /api/member/getSharePools). */
export function fetchSharePools(api: ApiClient): Promise<Answer<ResultOf<'getSharePools'>>> {
  return api.call('getSharePools').then(toAnswer);
}

/** The members the member may transfer WPOS to (GET /api/member/getRentValidBindMemberAddress). */
export function fetchTransferRecipients(api: ApiClient): Promise<Answer<ResultOf<'getRentValidBindMemberAddress'>>> {
  return api.call('getRentValidBindMemberAddress').then(toAnswer);
}

/** A WPOS transfer to a team member, at most once per request id (POST /api/member/transferWpos). */
export function transferWpos(api: ApiClient, body: BodyOf<'transferWpos'>): Promise<Answer<ResultOf<'transferWpos'>>> {
  return api.call('transferWpos', { body }).then(toAnswer);
}

/** A flash exchange between WPOS and credit, at most once per request id (POST /api/member/flashExchange). */
export function flashExchange(api: ApiClient, body: BodyOf<'flashExchange'>): Promise<Answer<ResultOf<'flashExchange'>>> {
  return api.call('flashExchange', { body }).then(toAnswer);
}

/** A page of goods, names in the member's language (GET /api/goods/list). */
export function fetchGoodsPage(api: ApiClient, query: QueryOf<'goodsList'>): Promise<Answer<ResultOf<'goodsList'>>> {
  return api.call('goodsList', { query }).then(toAnswer);
}

/** One goods item with its price and stock now (GET /api/goods/detail). */
export function fetchGoods(api: ApiClient, query: QueryOf<'goodsDetail'>): Promise<Answer<ResultOf<'goodsDetail'>>> {
  return api.call('goodsDetail', { query }).then(toAnswer);
}

/** A page of the member's orders, newest first (GET /api/order/list). */
export function fetchOrderPage(api: ApiClient, query: QueryOf<'orderList'>): Promise<Answer<ResultOf<'orderList'>>> {
  return api.call('orderList', { query }).then(toAnswer);
}

/** The member's shipping addresses, the default first (GET /api/member/delivery/list). */
export function fetchAddresses(api: ApiClient): Promise<Answer<ResultOf<'deliveryList'>>> {
  return api.call('deliveryList').then(toAnswer);
}

/** Adds a shipping address (POST /api/member/delivery/add). */
export function addAddress(api: ApiClient, body: BodyOf<'deliveryAdd'>): Promise<Answer<ResultOf<'deliveryAdd'>>> {
  return api.call('deliveryAdd', { body }).then(toAnswer);
}

/** Edits an own shipping address (POST /api/member/delivery/edit). */
export function editAddress(api: ApiClient, body: BodyOf<'deliveryEdit'>): Promise<Answer<ResultOf<'deliveryEdit'>>> {
  return api.call('deliveryEdit', { body }).then(toAnswer);
}

/** Deletes an own shipping address (POST /api/member/delivery/delete). */
export function deleteAddress(api: ApiClient, body: BodyOf<'deliveryDelete'>): Promise<Answer<ResultOf<'deliveryDelete'>>> {
  return api.call('deliveryDelete', { body }).then(toAnswer);
}

/** Pays for goods with credit, at most once per request id (POST /api/order/settle). */
export function settleOrder(api: ApiClient, body: BodyOf<'orderSettle'>): Promise<Answer<ResultOf<'orderSettle'>>> {
  return api.call('orderSettle', { body }).then(toAnswer);
}

/** The member's record with both balances (GET /api/member/meInfo). */
export function fetchMeInfo(api: ApiClient): Promise<Answer<ResultOf<'meInfo'>>> {
  return api.call('meInfo').then(toAnswer);
}

/** Asks the server to look at one top-up transaction now (POST /api/member/topUp). */
export function topUp(api: ApiClient, body: BodyOf<'topUp'>): Promise<Answer<ResultOf<'topUp'>>> {
  return api.call('topUp', { body }).then(toAnswer);
}
