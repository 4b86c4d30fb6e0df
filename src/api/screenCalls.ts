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
